import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { recordApprovalRun, recordReAskRun } from '../testing/support-runs';
import { fileTrace } from '../trace/file-trace';
import { traceRuns } from './build-run-views';
import { TraceFileReader } from './trace-file-reader';

type Json = Record<string, unknown>;

/** A tool call's record or intent as format 1 named it. */
function named1(call: unknown): Json {
  const { toolCallId, toolName, ...rest } = call as Json;
  return { id: toolCallId, ...(toolName === undefined ? {} : { name: toolName }), ...rest };
}

const list1 = (calls: unknown): unknown => (Array.isArray(calls) ? calls.map(named1) : calls);

/** A line of a trace file as a Keel of format 1 wrote it: its tool calls named `id` / `name`. */
function lineOfFormat1(line: string): string {
  const value = JSON.parse(line) as Json;
  if (typeof value.seq !== 'number') return line;
  const old: Json = { ...value };
  const start = value.start as Json | undefined;
  const next = value.next as { turn?: { resumed?: Json } } | undefined;
  const suspension = value.suspension as { turn?: Json } | undefined;
  if (start) old.start = { ...start, version: 1 };
  if (value.toolCalls) old.toolCalls = list1(value.toolCalls);
  if (value.intent) old.intent = named1(value.intent);
  if (value.outcome) old.outcome = named1(value.outcome);
  if (next?.turn?.resumed) old.next = { ...next, turn: { ...next.turn, resumed: { ...next.turn.resumed, finished: list1(next.turn.resumed.finished) } } };
  if (suspension?.turn) old.suspension = { ...suspension, turn: { ...suspension.turn, finished: list1(suspension.turn.finished) } };
  return JSON.stringify(old);
}

/** A trace of a run with re-asks and a sub-agent and of a run suspended and resumed, and the same trace as format 1 wrote it. */
async function traces(recordContent: boolean) {
  const directory = mkdtempSync(join(tmpdir(), 'keel-format-1-'));
  const path = join(directory, 'runs.jsonl');
  const trace = fileTrace(path, { recordContent });
  const runIds = [(await recordReAskRun(trace)).runId, (await recordApprovalRun(trace)).runId];
  await trace.flush();
  const text = readFileSync(path, 'utf8');
  const earlier = join(directory, 'format-1.jsonl');
  writeFileSync(earlier, text.split('\n').map((line) => (line === '' ? line : lineOfFormat1(line))).join('\n'));
  return { now: traceRuns((await new TraceFileReader(path).read()).lines), earlier: traceRuns((await new TraceFileReader(earlier).read()).lines), runIds };
}

describe('trace files of format 1', () => {
  for (const recordContent of [true, false]) {
    it(`show their runs as the same runs written now show (${recordContent ? 'with' : 'without'} content): each tool call with its id and name`, async () => {
      const { now, earlier, runIds } = await traces(recordContent);
      for (const runId of runIds) expect(earlier.view(runId)).toEqual(now.view(runId));
      const tools = now.view(runIds[0] as string)?.segments.flatMap((segment) => segment.steps.flatMap((step) => step.tools)) ?? [];
      expect(tools.map((tool) => tool.toolName)).toContain('lookup_order');
      expect(tools.every((tool) => tool.toolCallId !== '')).toBe(true);
    });
  }
});
