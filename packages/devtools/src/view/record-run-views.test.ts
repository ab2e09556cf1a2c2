import { describe, expect, it } from 'vitest';
import { line, recordAttempt, recordLine, usage } from '../testing/record-lines';
import { supportRun } from '../testing/record-support-run';
import { traceRuns } from './build-run-views';
import type { AttemptView, RunView } from './run-view';

const decisions = (view: RunView | undefined) => view?.segments.flatMap((segment) => segment.steps.map((step) => step.attempts.map((attempt) => `${attempt.purpose}:${attempt.decision?.type}`)));
const call = (view: RunView | undefined, step: number, attempt: number, toolCallId?: string): AttemptView | undefined =>
  view?.attempts.find((candidate) => candidate.step === step && candidate.attempt === attempt && candidate.toolCallId === toolCallId);

describe('traceRuns on records', () => {
  it("lists a run with its last record's totals (sub-agents included) and its own re-asks", () => {
    const runs = traceRuns(supportRun);
    expect(runs.runs.map((run) => run.runId)).toEqual(['parent']);
    const summary = runs.byId.get('parent');
    expect(summary).toMatchObject({ status: 'ok', startedAt: 1000, provider: 'scripted', subAgentCalls: 1, modelCalls: 7, inputTokens: 9900, outputTokens: 240, reAsks: 3, steps: 3 });
    expect(summary?.costUsd).toBeCloseTo(0.0333, 12);
    expect(runs.byId.get('child')).toMatchObject({ parentRunId: 'parent', parentToolCallId: 'policy-1', modelCalls: 1, subAgentCalls: 0 });
  });

  it('builds steps, model calls and tool calls from the record, the events placed on the calls they name', () => {
    const view = traceRuns(supportRun).view('parent');
    expect(decisions(view)).toEqual([['step:re-ask', 'tool-re-ask:accept'], ['step:run tools'], ['step:retry', 'step:retry', 'step:accept']]);
    const third = view?.segments[0]?.steps[2];
    expect(third?.attempts.map((attempt) => attempt.feedback?.rule)).toEqual([undefined, 'schema-retry', 'schema-retry']);
    expect(third?.attempts.map((attempt) => attempt.issues.map((issue) => issue.stage))).toEqual([['json-parse'], ['schema-validate'], []]);
    expect(third?.attempts[2]?.decision).toEqual({ type: 'accept', via: 'feedback' });
    expect(call(view, 1, 1, 'lookup-1')?.feedback).toEqual({ type: 're-ask', rule: 'tool-re-ask' });
    expect(call(view, 3, 1)).toMatchObject({ status: 'invalid', errorKind: 'parse-fail', issueCount: 1, response: { inputTokens: 1700, outputTokens: 30, costUsd: 0.00555, latencyMs: 1.5 } });
    expect(call(view, 3, 1)?.messageCount).toBeUndefined();
    expect(view?.segments[0]?.steps.map((step) => step.tools.map((tool) => `${tool.tool}:${tool.isError}:${tool.durationMs}`))).toEqual([['lookup_order:false:8'], ['policy_check:false:3'], []]);
    expect(view?.segments[0]?.end).toEqual({ status: 'ok', durationMs: 1000 });
    expect(view?.attempts.map((attempt) => attempt.key)).toEqual(['1', '2', '3', '4', '5', '6']);
  });

  it('nests a sub-agent under the tool call its record names, though its record comes first', () => {
    const view = traceRuns(supportRun).view('parent');
    expect(view?.segments[0]?.steps[1]?.tools[0]?.children.map((child) => child.summary.runId)).toEqual(['child']);
    expect(view?.children).toEqual([]);
  });

});

describe('traceRuns on records: events placed on their calls', () => {
  it('places events by key, not position: a retry of attempt 1 and a failure of attempt 2 land on their own calls', () => {
    const view = traceRuns([
      line('reliability.retry', { runId: 'r', step: 1, attempt: 1, kind: 'provider-retry', rule: 'provider-retry', errorKind: 'rate-limit', delayMs: 250, decision: 'retry' }),
      line('model.error', { runId: 'r', step: 1, attempt: 1, purpose: 'step', provider: 'scripted', model: 'm', errorKind: 'rate-limit', errorName: 'RateLimitError', message: 'slow down', latencyMs: 3 }),
      line('validation.failed', { runId: 'r', step: 1, stage: 'schema-validate', attempt: 2, issueCount: 2 }),
      line('reliability.retry', { runId: 'r', step: 1, attempt: 2, kind: 'schema-retry', rule: 'schema-retry', errorKind: 'schema-fail', delayMs: 0, decision: 'retry', feedback: 'amount must be a number' }),
      recordLine('r', {
        modelCalls: 3,
        attempts: [
          recordAttempt({ status: 'error', errorKind: 'rate-limit', ...usage(0, 0, 0) }),
          recordAttempt({ attempt: 2, status: 'invalid', errorKind: 'schema-fail', issueCount: 2, feedbackSent: true }),
          recordAttempt({ attempt: 3, feedbackSent: true }),
        ],
        steps: [{ step: 1, finishReason: 'stop', toolCalls: 0, modelCalls: 3, durationMs: 10 }],
      }),
    ]).view('r');
    const [first, second, third] = view?.attempts ?? [];
    expect(first).toMatchObject({ decision: { type: 'retry', rule: 'provider-retry', delayMs: 250 }, error: { errorKind: 'rate-limit', errorName: 'RateLimitError' }, issues: [] });
    expect(first?.response).toBeUndefined();
    expect(first?.feedback).toBeUndefined();
    expect(second).toMatchObject({ feedback: { type: 'retry', rule: 'provider-retry' }, issues: [{ stage: 'schema-validate', issueCount: 2 }], decision: { type: 'retry', rule: 'schema-retry' } });
    expect(third).toMatchObject({ feedback: { type: 'retry', rule: 'schema-retry', text: 'amount must be a number' }, decision: { type: 'accept' } });
    expect(view?.attempts).toHaveLength(3);
  });

  it('keeps parallel re-asks of one step apart by tool call, each feedback on the next call of its lane', () => {
    const reAsk = (toolCallId: string, number: number, feedback: string) => line('tool.re-ask', { runId: 'r', step: 2, toolCallId, tool: 'lookup', rule: 'tool-re-ask', reAsk: number, feedback });
    const view = traceRuns([
      reAsk('a', 1, 'fix a'),
      reAsk('b', 1, 'fix b'),
      line('validation.failed', { runId: 'r', step: 2, toolCallId: 'a', stage: 'schema-validate', attempt: 1, issueCount: 1 }),
      line('reliability.retry', { runId: 'r', step: 2, toolCallId: 'a', attempt: 1, kind: 'tool-re-ask', rule: 'tool-re-ask', errorKind: 'schema-fail', delayMs: 0, decision: 'retry' }),
      reAsk('a', 2, 'fix a again'),
      recordLine('r', {
        step: 2,
        attempts: [
          recordAttempt({ step: 2 }),
          recordAttempt({ step: 2, purpose: 'tool-re-ask', toolCallId: 'a', status: 'invalid', errorKind: 'schema-fail', issueCount: 1, feedbackSent: true }),
          recordAttempt({ step: 2, purpose: 'tool-re-ask', toolCallId: 'b', feedbackSent: true }),
          recordAttempt({ step: 2, attempt: 2, purpose: 'tool-re-ask', toolCallId: 'a', feedbackSent: true }),
        ],
        steps: [{ step: 2, finishReason: 'tool-calls', toolCalls: 2, modelCalls: 4, durationMs: 10 }],
        toolCalls: [
          { toolCallId: 'a', tool: 'lookup', step: 2, isError: false, durationMs: 1 },
          { toolCallId: 'b', tool: 'lookup', step: 2, isError: false, durationMs: 1, coercions: 1 },
        ],
      }),
    ]).view('r');
    expect(call(view, 2, 1)?.decision).toEqual({ type: 're-ask', rule: 'tool-re-ask', label: 'lookup' });
    expect(call(view, 2, 1, 'a')).toMatchObject({ feedback: { text: 'fix a' }, issues: [{ stage: 'schema-validate' }], decision: { type: 'retry' } });
    expect(call(view, 2, 1, 'b')).toMatchObject({ feedback: { text: 'fix b' }, decision: { type: 'accept' } });
    expect(call(view, 2, 2, 'a')).toMatchObject({ feedback: { type: 're-ask', text: 'fix a again' }, decision: { type: 'accept' } });
    expect(view?.segments[0]?.steps[0]?.tools[1]?.coercions).toBe(1);
    expect(traceRuns([reAsk('a', 1, 'x')]).byId.get('r')?.reAsks).toBe(1);
  });

  it('lists a run with only its events so far as running, with the calls they name', () => {
    const events = [
      line('validation.failed', { runId: 'live', step: 1, stage: 'json-parse', attempt: 1, issueCount: 1 }),
      line('reliability.retry', { runId: 'live', step: 1, attempt: 1, kind: 'schema-retry', rule: 'schema-retry', errorKind: 'parse-fail', delayMs: 0, decision: 'retry' }),
      line('model.error', { runId: 'live', step: 1, attempt: 2, purpose: 'step', provider: 'scripted', model: 'claude-sonnet-4-6', errorKind: 'timeout', errorName: 'TimeoutError', message: 'late' }),
    ];
    const runs = traceRuns(events);
    expect(runs.runs.map((run) => [run.runId, run.status, run.model, run.modelCalls, run.reAsks])).toEqual([['live', 'running', 'claude-sonnet-4-6', 0, 1]]);
    expect(runs.byId.get('live')).toMatchObject({ totalsPending: true });
    expect(runs.byId.get('live')?.costUsd).toBeUndefined();
    const view = runs.view('live');
    expect(view?.segments).toHaveLength(1);
    expect(view?.segments[0]?.end).toBeUndefined();
    expect(view?.attempts.map((attempt) => [attempt.attempt, attempt.purpose, attempt.issues.length, attempt.decision?.type, attempt.feedback?.rule, attempt.error?.errorKind])).toEqual([
      [1, 'unknown', 1, 'retry', undefined, undefined],
      [2, 'step', 0, undefined, 'schema-retry', 'timeout'],
    ]);
    // Its record arrives: the same run, ended, its calls from the record.
    const ended = traceRuns([...events, recordLine('live', { status: 'error', errorName: 'TimeoutError', modelCalls: 2, attempts: [recordAttempt({ status: 'invalid', errorKind: 'parse-fail', issueCount: 1 }), recordAttempt({ attempt: 2, status: 'error', errorKind: 'timeout', ...usage(0, 0, 0) })] })]);
    expect(ended.byId.get('live')).toMatchObject({ status: 'error', modelCalls: 2 });
    expect(ended.byId.get('live')).not.toHaveProperty('totalsPending');
    expect(ended.view('live')?.attempts.map((attempt) => [attempt.purpose, attempt.status, attempt.decision?.type, attempt.feedback?.rule, attempt.error?.errorName])).toEqual([
      ['step', 'invalid', 'retry', undefined, undefined],
      ['step', 'error', undefined, 'schema-retry', 'TimeoutError'],
    ]);
  });

});

describe('traceRuns on records: runs in progress and resumed', () => {
  describe('a run suspended then resumed', () => {
    const suspended = line('run.suspended', { runId: 's', step: 1, suspensionId: 'sus-1', toolCallIds: 'refund-1', tools: 'refund', pending: 1 });
    const first = recordLine('s', { status: 'suspended', durationMs: 8, modelCalls: 1, ...usage(900, 30, 0.00315), attempts: [recordAttempt(usage(900, 30, 0.00315))] });
    const resumed = line('run.resumed', { runId: 's', step: 1, timestamp: 5000, suspensionId: 'sus-1', approved: 1, rejected: 0 });
    const second = recordLine('s', {
      step: 2,
      timestamp: 6000,
      durationMs: 14,
      modelCalls: 2,
      ...usage(1900, 42, 0.00633),
      attempts: [recordAttempt(usage(900, 30, 0.00315)), recordAttempt({ step: 2, ...usage(1000, 12, 0.00318) })],
      steps: [
        { step: 1, finishReason: 'tool-calls', toolCalls: 1, modelCalls: 1, durationMs: 3 },
        { step: 2, finishReason: 'stop', toolCalls: 0, modelCalls: 1, durationMs: 2 },
      ],
      toolCalls: [{ toolCallId: 'refund-1', tool: 'refund', step: 1, isError: false, durationMs: 0.5 }],
    });

    it('shows two segments, the second made of what the later record holds beyond the first', () => {
      const runs = traceRuns([suspended, first, resumed, second]);
      const segments = runs.view('s')?.segments ?? [];
      expect(segments.map((segment) => segment.end)).toEqual([
        { status: 'suspended', durationMs: 8 },
        { status: 'ok', durationMs: 6 },
      ]);
      expect(segments[0]?.suspended).toMatchObject({ pending: 1, tools: 'refund', toolCallIds: 'refund-1' });
      expect(segments[1]?.resumed).toEqual({ suspensionId: 'sus-1', approved: 1, rejected: 0 });
      expect(segments.map((segment) => segment.steps.map((step) => `${step.step}:${step.attempts.length}:${step.tools.map((tool) => tool.toolCallId).join()}`))).toEqual([['1:1:'], ['1:0:refund-1', '2:1:']]);
      // The call of step 1 ran tools once step 1 ended, after the resume.
      expect(decisions(runs.view('s'))).toEqual([['step:run tools'], [], ['step:accept']]);
      expect(runs.byId.get('s')).toMatchObject({ status: 'ok', modelCalls: 2, inputTokens: 1900, outputTokens: 42, subAgentCalls: 0, steps: 2 });
      expect(runs.view('s')?.attempts).toHaveLength(2);
    });

    it('puts a run.suspended written after the record on the segment that record ended', () => {
      const segments = traceRuns([first, suspended, resumed, second]).view('s')?.segments ?? [];
      expect(segments.map((segment) => [segment.suspended?.suspensionId, segment.resumed?.suspensionId])).toEqual([
        ['sus-1', undefined],
        [undefined, 'sus-1'],
      ]);
    });

    it('lists a resumed run whose next record is not written yet as running, with the last totals', () => {
      const runs = traceRuns([suspended, first, resumed, line('validation.failed', { runId: 's', step: 2, stage: 'json-parse', attempt: 1, issueCount: 1 })]);
      expect(runs.byId.get('s')).toMatchObject({ status: 'running', modelCalls: 1 });
      const segments = runs.view('s')?.segments ?? [];
      expect(segments.map((segment) => segment.end?.status)).toEqual(['suspended', undefined]);
      expect(segments[1]?.steps[0]?.attempts[0]).toMatchObject({ step: 2, attempt: 1, issues: [{ stage: 'json-parse' }] });
      expect(traceRuns([suspended, first]).byId.get('s')?.status).toBe('suspended');
    });
  });
});
