import { describe, expect, it } from 'vitest';
import { line, recordAttempt, recordLine } from '../testing/record-lines';
import { traceRuns } from './build-run-views';

describe('traceRuns on hand-edited records', () => {
  it('reads a record with entries and fields of the wrong shape, saying what it could not read', () => {
    const runs = traceRuns([
      recordLine('odd', {
        status: 9,
        durationMs: 'long',
        modelCalls: undefined,
        costUsd: 'free',
        attempts: [7, null, { attempt: 1 }, { step: 1, attempt: 'x', status: 5, inputTokens: 'many', costUsd: 'free', latencyMs: null, feedbackSent: 'yes' }],
        steps: 'none',
        toolCalls: [{ step: 1 }],
      }),
    ]);
    expect(runs.byId.get('odd')).toMatchObject({ status: 'ended', modelCalls: 4, subAgentCalls: 0 });
    expect(runs.byId.get('odd')?.costUsd).toBeUndefined();
    const segment = runs.view('odd')?.segments[0];
    expect(segment?.notes).toEqual(["the run's record holds 3 model call(s) that could not be read (not an object with a step)"]);
    expect(segment?.end).toEqual({ status: 'ended' });
    expect(segment?.steps[0]?.attempts[0]).toMatchObject({ attempt: 0, purpose: 'step', provider: '', response: { inputTokens: 0, outputTokens: 0 } });
    expect(segment?.steps[0]?.attempts[0]?.response).not.toHaveProperty('costUsd');
    expect(segment?.steps[0]?.attempts[0]?.response).not.toHaveProperty('latencyMs');
    expect(segment?.steps[0]?.tools).toEqual([{ toolCallId: '', children: [] }]);
  });

  it('says so when a later record of a run is not cumulative, and shows no duration it cannot know', () => {
    const view = traceRuns([
      recordLine('r', { status: 'suspended', durationMs: 50, attempts: [recordAttempt(), recordAttempt({ attempt: 2 })] }),
      line('run.resumed', { runId: 'r', suspensionId: 's', approved: 1, rejected: 0 }),
      recordLine('r', { durationMs: 20, attempts: [recordAttempt()] }),
    ]).view('r');
    expect(view?.segments[1]?.notes).toEqual([
      "the run's record holds fewer attempts than its previous record: the lists were not cumulative, what this segment did is unknown",
      "the run's record lasted 20.0 ms, less than its previous record's 50.0 ms, though a resumed run's duration is cumulative: this segment's own duration is unknown",
    ]);
    expect(view?.segments[1]?.end).toEqual({ status: 'ok' });
    expect(view?.segments[1]?.steps).toEqual([]);
  });

  it('keeps an event that names a call its record lacks, on a call of its own', () => {
    const view = traceRuns([line('validation.failed', { runId: 'r', step: 4, stage: 'json-parse', attempt: 2, issueCount: 1 }), recordLine('r', { attempts: [recordAttempt()] })]).view('r');
    expect(view?.attempts.map((attempt) => `${attempt.step}/${attempt.attempt}/${attempt.purpose}/${attempt.issues.length}`)).toEqual(['1/1/step/0', '4/2/unknown/1']);
    expect(view?.segments[0]?.steps.map((step) => step.step)).toEqual([1, 4]);
  });

  it('lists a sub-agent whose tool call is not in its parent under the parent, unclaimed', () => {
    const view = traceRuns([recordLine('child', { parentRunId: 'parent', parentToolCallId: 'nowhere' }), recordLine('parent', { toolCalls: [{ toolCallId: 'call-1', tool: 'ask', step: 1, isError: false, durationMs: 1 }] })]).view('parent');
    expect(view?.segments[0]?.steps[0]?.tools[0]?.children).toEqual([]);
    expect(view?.children.map((child) => child.summary.runId)).toEqual(['child']);
  });

  it('lists a sub-agent with no record yet under its parent, unclaimed, as running', () => {
    const runs = traceRuns([line('validation.failed', { runId: 'child', parentRunId: 'parent', stage: 'json-parse', attempt: 1, issueCount: 1 }), recordLine('parent', { status: 'aborted', toolCalls: [{ toolCallId: 'call-1', tool: 'ask', step: 1, isError: true, errorCode: 'aborted', durationMs: 1 }] })]);
    expect(runs.runs.map((run) => run.runId)).toEqual(['parent']);
    expect(runs.view('parent')?.children.map((child) => [child.summary.runId, child.summary.status])).toEqual([['child', 'running']]);
  });

  it('keeps a run ended when a listener error is written after its record', () => {
    const runs = traceRuns([recordLine('r'), line('listener.error', { runId: 'r', step: 0, event: 'record', errorName: 'TypeError' })]);
    expect(runs.byId.get('r')?.status).toBe('ok');
    expect(runs.view('r')?.segments.map((segment) => [segment.end?.status, segment.notes])).toEqual([['ok', ['a listener of record failed: TypeError']]]);
  });

  it('lists records whose parents loop at top level, each under the other once', () => {
    const runs = traceRuns([recordLine('a', { parentRunId: 'b', parentToolCallId: 'call-b' }), recordLine('b', { parentRunId: 'a', parentToolCallId: 'call-a' }), recordLine('self', { parentRunId: 'self' })]);
    expect(runs.runs.map((run) => [run.runId, run.parentLoop])).toEqual([
      ['a', ['a', 'b']],
      ['b', ['b', 'a']],
      ['self', ['self']],
    ]);
    expect(runs.view('a')?.children.map((child) => child.summary.runId)).toEqual(['b']);
    expect(runs.view('a')?.children[0]?.children).toEqual([]);
    expect(runs.view('self')?.children).toEqual([]);
  });

  it('reads a run that has a record from its records only, leaving out event-by-event lines of it', () => {
    const runs = traceRuns([
      line('run.start', { runId: 'mixed', provider: 'other', model: 'other' }),
      line('model.request', { runId: 'mixed', attempt: 1, purpose: 'step', messageCount: 1 }),
      recordLine('mixed', { modelCalls: 1, attempts: [recordAttempt()] }),
    ]);
    expect(runs.byId.get('mixed')).toMatchObject({ status: 'ok', model: 'claude-sonnet-4-6', modelCalls: 1 });
    expect(runs.view('mixed')?.attempts).toHaveLength(1);
  });

  it('keeps reading a file written event by event as before, next to runs written as records', () => {
    const runs = traceRuns([line('run.start', { runId: 'old', provider: 'p', model: 'm' }), line('model.request', { runId: 'old', attempt: 1, purpose: 'step', messageCount: 2, ephemeralCount: 0, toolChoice: 'auto' }), recordLine('new')]);
    expect(runs.view('old')?.attempts[0]).toMatchObject({ messageCount: 2, newMessageCount: 2, toolChoice: 'auto' });
    expect(runs.byId.get('old')).toMatchObject({ status: 'running', modelCalls: 1 });
  });
});
