import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderApp } from '../page/render-page';
import { recordApprovalRun, recordReAskRun } from '../testing/support-runs';
import { fileTrace } from '../trace/file-trace';
import { traceRuns } from './build-run-views';
import type { ReadEntry, ReadEvent, TraceLine } from './parse-trace-line';
import { TraceFileReader } from './trace-file-reader';

async function recorded(recordContent: boolean) {
  const path = join(mkdtempSync(join(tmpdir(), 'keel-run-views-')), 'runs.jsonl');
  const trace = fileTrace(path, { recordContent });
  const reAsk = await recordReAskRun(trace);
  const approval = await recordApprovalRun(trace);
  await trace.flush();
  const lines = (await new TraceFileReader(path).read()).lines;
  return { lines, runs: traceRuns(lines), reAsk, approval };
}

const event = (name: string, payload: Record<string, unknown>): TraceLine => ({ kind: 'event', event: { event: name, payload: { step: 1, timestamp: 1, ...payload } as ReadEvent['payload'] } });
const entry = (runId: string, seq: number, type: string, fields: Record<string, unknown> = {}): TraceLine => ({ kind: 'entry', entry: { runId, seq, type, step: 1, at: 1000 + seq, elapsedMs: seq * 10, ...fields } as ReadEntry });
const usage = { inputTokens: 10, outputTokens: 5, cacheReadTokens: 0, cacheWriteTokens: 0 };
const attempt = (fields: Record<string, unknown> = {}) => ({ step: 1, attempt: 1, purpose: 'step', providerIndex: 0, status: 'valid', errorKind: 'ok', issues: [], elapsedMs: 2, usage, feedbackSent: false, ...fields });

/** The page of `runId` as the server renders it. */
const page = (lines: readonly TraceLine[], runId: string) => renderApp({ file: 'runs.jsonl', snapshot: { lines, skippedLines: 0, version: 1, exists: true }, runs: traceRuns(lines), runId }).html;

describe('traceRuns', () => {
  it("lists top-level runs newest first, with the ledger's totals", async () => {
    const { runs, reAsk, approval } = await recorded(false);
    expect(runs.runs.map((run) => run.runId)).toEqual([approval.runId, reAsk.runId]);
    const summary = runs.byId.get(reAsk.runId);
    expect(summary).toMatchObject({ status: 'complete', provider: 'scripted', model: 'claude-sonnet-4-6', subAgentCalls: 1, modelCalls: reAsk.usage.modelCalls, inputTokens: reAsk.usage.inputTokens, outputTokens: reAsk.usage.outputTokens, reAsks: 3, steps: 3 });
    expect(summary?.costUsd).toBeCloseTo(reAsk.usage.costUsd ?? Number.NaN, 12);
  });

  it('puts each model call in its step, with the feedback it carried, the decision taken after it and the messages it added', async () => {
    const { runs, reAsk } = await recorded(true);
    const view = runs.view(reAsk.runId);
    const steps = view?.segments[0]?.steps ?? [];
    expect(steps.map((step) => step.attempts.map((call) => `${call.purpose}:${call.decision?.type}`))).toEqual([['step:re-ask', 'tool-re-ask:accept'], ['step:run tools'], ['step:retry', 'step:retry', 'step:accept']]);
    const [first, second, third] = steps;
    expect(third?.attempts.map((call) => call.feedback?.rule)).toEqual([undefined, 'schema-retry', 'schema-retry']);
    expect(third?.attempts[0]?.issues[0]).toMatchObject({ stage: 'json-parse', issueCount: 1 });
    expect(first?.attempts[0]?.newMessages?.map((message) => message.role)).toEqual(['user']);
    expect(third?.attempts[0]?.newMessages?.map((message) => message.role)).toEqual(['assistant', 'tool']);
    expect(first?.tools[0]).toMatchObject({ toolName: 'lookup_order', reAsks: 1, isError: false });
    expect(second?.tools[0]?.children[0]?.summary.parentRunId).toBe(reAsk.runId);
    expect(view?.attempts).toHaveLength(6);
    expect(view?.contentRecorded).toBe(true);
  });

  it('shows a suspended run and its resume as two parts of one run', async () => {
    const { runs, approval } = await recorded(false);
    const segments = runs.view(approval.runId)?.segments ?? [];
    expect(segments.map((segment) => segment.end?.status)).toEqual(['suspended', 'complete']);
    expect(segments[0]?.suspended).toMatchObject({ pending: [{ toolName: 'refund' }], unknown: [] });
    expect(segments[1]?.resumed).toMatchObject({ approved: 1, rejected: 0 });
  });

  it('says messages were not recorded only for a trace written without recordContent', async () => {
    const withContent = await recorded(true);
    const without = await recorded(false);
    for (const runId of [withContent.reAsk.runId, withContent.approval.runId]) expect(page(withContent.lines, runId)).not.toContain('not recorded');
    expect(page(without.lines, without.reAsk.runId)).toContain('Messages not recorded (the trace was written without recordContent)');
    // A failed call of a trace written with content: its feedback and messages are shown, never said to be missing.
    const failed = traceRuns(withContent.lines).view(withContent.reAsk.runId)?.attempts.find((call) => call.status === 'invalid');
    expect(failed?.contentRecorded).toBe(true);
  });

});

describe('traceRuns (continued)', () => {
  it('shows a recovered run as a recovery, and calls whose outcome is unknown as such, not as calls waiting for approval', () => {
    const lines = [
      entry('r', 0, 'input', { step: 0, start: { version: 1, startedAt: 1000 } }),
      entry('r', 1, 'model-turn', { attempts: [attempt()], next: { type: 'call-tools' } }),
      entry('r', 2, 'tool-intent', { intent: { toolCallId: 'k1', toolName: 'charge' } }),
      entry('r', 3, 'recovery'),
      entry('r', 4, 'suspension', { suspension: { suspensionId: 's1', agent: 'a', expiresAt: 1, suspendedAt: 1, pending: [], unknown: [{ toolCallId: 'k1', toolName: 'charge', idempotencyKey: 'r:k1' }], usage: { ...usage, totalTokens: 15, modelCalls: 1 } } }),
    ];
    const view = traceRuns(lines).view('r');
    expect(view?.segments.map((segment) => [segment.end?.status, segment.recovered])).toEqual([
      ['stopped', undefined],
      ['suspended', { step: 1 }],
    ]);
    expect(view?.segments[1]?.suspended).toEqual({ suspensionId: 's1', pending: [], unknown: [{ toolCallId: 'k1', toolName: 'charge' }] });
    expect(view?.segments[0]?.steps[0]?.tools).toEqual([{ toolCallId: 'k1', toolName: 'charge', children: [] }]);
    const html = page(lines, 'r');
    expect(html).toContain('Recovered: the run was continued from its journal at step 1');
    expect(html).toContain('1 call(s) whose outcome is unknown');
    expect(html).not.toContain('wait for approval');
  });

  it('reads an entry written twice (two traces on one agent) once, and counts lines the writer dropped', () => {
    const lines: TraceLine[] = [entry('r', 0, 'input', { step: 0, start: { version: 1, startedAt: 1 } }), entry('r', 1, 'answer', { attempts: [attempt()] }), entry('r', 1, 'answer', { attempts: [attempt()] }), { kind: 'note', dropped: 4 }];
    const runs = traceRuns(lines);
    expect(runs.view('r')?.attempts).toHaveLength(1);
    expect(runs.dropped).toBe(4);
    expect(page(lines, 'r')).toContain('4 line(s) dropped by the writer');
  });

  it('survives a hostile file: runs that are their own parent or each other’s, reports of calls no entry holds, fields of the wrong type', () => {
    const lines = [
      event('run.start', { runId: 'self', parentRunId: 'self', provider: 7 }),
      event('validation.failed', { runId: 'self', stage: { nested: true }, issueCount: 'many' }),
      event('reliability.retry', { runId: 'self', kind: 'schema-retry' }),
      event('run.start', { runId: 'a', parentRunId: 'b' }),
      event('run.start', { runId: 'b', parentRunId: 'a' }),
      entry('a', 0, 'input', { start: 'none', messages: 7, attempts: [7, null, { usage: { costUsd: 'free' } }], toolCalls: [{ id: 3 }], suspension: [], end: 'x' }),
    ];
    const runs = traceRuns(lines);
    const self = runs.view('self');
    expect(self?.attempts[0]).toMatchObject({ purpose: 'step', issues: [{ stage: '', issueCount: 0 }], decision: { type: 'retry', rule: 'schema-retry' } });
    expect(self?.attempts[1]?.feedback).toEqual({ type: 'retry', rule: 'schema-retry' });
    expect(runs.view('a')?.children.map((child) => child.summary.runId)).toEqual(['b']);
    expect(runs.view('a')?.children[0]?.children).toEqual([]);
    expect(runs.byId.get('a')?.costUsd).toBeUndefined();
    expect(runs.view('missing')).toBeUndefined();
    for (const runId of ['self', 'a', 'b']) expect(page(lines, runId)).not.toMatch(/undefined|NaN/);
  });

  it('lists the runs whose parents loop, at top level with the loop they enter, and the runs under them', () => {
    const start = (runId: string, parentRunId?: string, timestamp = 1) => event('run.start', { runId, timestamp, ...(parentRunId === undefined ? {} : { parentRunId }) });
    const runs = traceRuns([
      start('top', undefined, 6),
      start('under-top', 'top'),
      start('orphan', 'not-in-the-file', 5),
      start('a', 'b', 4),
      start('b', 'a', 3),
      start('self', 'self', 2),
      start('under-a', 'a', 7),
      start('under-under-a', 'under-a'),
    ]);
    expect(runs.runs.map((run) => [run.runId, run.parentLoop])).toEqual([
      ['under-a', ['a', 'b']],
      ['top', undefined],
      ['orphan', undefined],
      ['a', ['a', 'b']],
      ['b', ['b', 'a']],
      ['self', ['self']],
      ['under-under-a', ['a', 'b']],
    ]);
    expect(runs.view('top')?.children.map((child) => child.summary.runId)).toEqual(['under-top']);
    expect(runs.view('b')?.children.map((child) => child.summary.runId)).toEqual(['a']);
    expect(runs.view('a')?.children.map((child) => child.summary.runId)).toEqual(['b', 'under-a']);
  });

  it('ends on a long loop of parents, listing every run of it', () => {
    const size = 100;
    const runs = traceRuns(Array.from({ length: size }, (_, index) => event('run.start', { runId: `r${index}`, parentRunId: `r${(index + 1) % size}` })));
    expect(runs.runs).toHaveLength(size);
    expect(runs.byId.get('r10')?.parentLoop?.slice(0, 2)).toEqual(['r10', 'r11']);
  });
});
