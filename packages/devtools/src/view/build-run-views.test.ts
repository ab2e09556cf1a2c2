import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { recordApprovalRun, recordReAskRun } from '../testing/support-runs';
import { fileTrace } from '../trace/file-trace';
import { traceRuns } from './build-run-views';
import type { ReadEvent } from './parse-trace-line';
import { TraceFileReader } from './trace-file-reader';

async function recorded(recordContent: boolean) {
  const path = join(mkdtempSync(join(tmpdir(), 'keel-run-views-')), 'runs.jsonl');
  const trace = fileTrace(path, { recordContent });
  const reAsk = await recordReAskRun(trace);
  const approval = await recordApprovalRun(trace);
  await trace.flush();
  return { runs: traceRuns((await new TraceFileReader(path).read()).events), reAsk, approval };
}

const event = (name: string, payload: Record<string, unknown>): ReadEvent => ({ event: name, payload: { step: 1, timestamp: 1, ...payload } as ReadEvent['payload'] });

describe('traceRuns', () => {
  it("lists top-level runs newest first, with the ledger's totals", async () => {
    const { runs, reAsk, approval } = await recorded(false);
    expect(runs.runs.map((run) => run.runId)).toEqual([approval.runId, reAsk.runId]);
    const summary = runs.byId.get(reAsk.runId);
    expect(summary).toMatchObject({ status: 'ok', subAgentCalls: 1, modelCalls: reAsk.usage.modelCalls, inputTokens: reAsk.usage.inputTokens, outputTokens: reAsk.usage.outputTokens, reAsks: 3, steps: 3 });
    expect(summary?.costUsd).toBeCloseTo(reAsk.usage.costUsd ?? Number.NaN, 12);
  });

  it('puts each model call in its step, with the feedback it carried and the decision taken after it', async () => {
    const { runs, reAsk } = await recorded(true);
    const view = runs.view(reAsk.runId);
    const steps = view?.segments[0]?.steps ?? [];
    expect(steps.map((step) => step.attempts.map((attempt) => `${attempt.purpose}:${attempt.decision?.type}`))).toEqual([
      ['step:re-ask', 'tool-re-ask:accept'],
      ['step:run tools'],
      ['step:retry', 'step:retry', 'step:accept'],
    ]);
    const [, , third] = steps;
    expect(third?.attempts.map((attempt) => attempt.feedback?.rule)).toEqual([undefined, 'schema-retry', 'schema-retry']);
    expect(third?.attempts[1]?.newMessages?.map((message) => `${message.role}${message.ephemeral ? ' (ephemeral)' : ''}`)).toEqual(['assistant (ephemeral)', 'user (ephemeral)']);
    expect(third?.attempts[0]?.issues[0]).toMatchObject({ stage: 'json-parse', issueCount: 1 });
    expect(steps[1]?.tools[0]?.children[0]?.summary.parentRunId).toBe(reAsk.runId);
    expect(view?.attempts).toHaveLength(6);
  });

  it('shows a suspended run and its resume as two segments of one run', async () => {
    const { runs, approval } = await recorded(false);
    const segments = runs.view(approval.runId)?.segments ?? [];
    expect(segments.map((segment) => segment.end?.status)).toEqual(['suspended', 'ok']);
    expect(segments[0]?.suspended).toMatchObject({ pending: 1, tools: 'refund' });
    expect(segments[1]?.resumed).toMatchObject({ approved: 1, rejected: 0 });
  });

  it('survives a hostile file: runs that are their own parent or each other’s, reports before requests, fields of the wrong type', () => {
    const runs = traceRuns([
      event('run.start', { runId: 'self', parentRunId: 'self', provider: 7 }),
      event('validation.failed', { runId: 'self', stage: { nested: true }, issueCount: 'many' }),
      event('reliability.retry', { runId: 'self', kind: 'schema-retry' }),
      event('run.start', { runId: 'a', parentRunId: 'b' }),
      event('run.start', { runId: 'b', parentRunId: 'a' }),
      event('model.response', { runId: 'a', costUsd: 'free' }),
    ]);
    const self = runs.view('self');
    expect(self?.attempts[0]).toMatchObject({ purpose: 'unknown', issues: [{ stage: '', issueCount: 0 }], decision: { type: 'retry', rule: 'schema-retry' } });
    expect(runs.view('a')?.children.map((child) => child.summary.runId)).toEqual(['b']);
    expect(runs.view('a')?.children[0]?.children).toEqual([]);
    expect(runs.byId.get('a')?.costUsd).toBeUndefined();
    expect(runs.view('missing')).toBeUndefined();
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
