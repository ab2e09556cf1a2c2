import type { RecordedRun } from '@keel/core';
import type { EntryReader, SlabWriter } from './trace-slabs';

type AttemptRecord = RecordedRun['ownAttempts'][number];
type StepRecord = RecordedRun['record']['steps'][number];
type ToolCallRecord = RecordedRun['record']['toolCalls'][number];

/** Names usually seen, written as one slot each (any other is written whole). */
const FINISH_REASONS = ['stop', 'tool-calls', 'length', 'content-filter', 'refusal', 'error', 'other'];
const ERROR_KINDS = ['ok', 'rate-limit', 'overloaded', 'server-error', 'timeout', 'network', 'schema-fail', 'parse-fail', 'rule-rejected', 'no-tool-call', 'guard-rejected', 'refusal', 'truncated', 'auth', 'bad-request', 'context-overflow', 'schema-refused', 'bad-response', 'aborted', 'unknown'];

const STATUSES = ['ok', 'error', 'aborted', 'suspended'] as const;
const PURPOSES = ['step', 'tool-re-ask', 'summary'] as const;
const ATTEMPT_STATUSES = ['ok', 'invalid', 'error'] as const;
const VIAS = [undefined, 'patch', 'continuation'] as const;

/** Index of `value` in `list`, or -1: a switch-free lookup for a handful of names. */
const codeOf = (list: readonly (string | undefined)[], value: string | undefined): number => list.indexOf(value);
const nameOf = <T>(list: readonly T[], code: number): T | 'unknown' => list[code] ?? 'unknown';

/** One model call of a run, as the trace line holds it. */
export interface AttemptFields {
  readonly step: number;
  readonly attempt: number;
  readonly purpose: string;
  readonly toolCallId?: string | undefined;
  readonly providerIndex: number;
  readonly status: string;
  readonly errorKind: string;
  readonly issueCount: number;
  readonly latencyMs: number;
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly cacheReadTokens: number;
  readonly cacheWriteTokens: number;
  readonly costUsd?: number | undefined;
  readonly feedbackSent: boolean;
  readonly via?: string | undefined;
  readonly rawOutput?: string | undefined;
}

/** One step of a run. */
export interface StepFields {
  readonly step: number;
  readonly finishReason: string;
  readonly toolCalls: number;
  readonly modelCalls: number;
  readonly durationMs: number;
  readonly text?: string | undefined;
}

/** One tool call of a run. */
export interface ToolCallFields {
  readonly toolCallId: string;
  readonly tool: string;
  readonly step: number;
  readonly isError: boolean;
  readonly errorCode?: string | undefined;
  readonly durationMs: number;
  readonly coercions: number;
  readonly arguments?: string | undefined;
  readonly output?: string | undefined;
}

/** A run's record as read back from its entry: what its `run.record` line is made of. */
export interface RecordFields {
  readonly runId: string;
  readonly parentRunId?: string | undefined;
  readonly parentToolCallId?: string | undefined;
  readonly status: string;
  readonly startedAt: number;
  readonly durationMs: number;
  readonly finishReason: string;
  readonly loopsDetected: number;
  readonly errorName?: string | undefined;
  readonly errorMessage?: string | undefined;
  readonly modelCalls: number;
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly cacheReadTokens: number;
  readonly cacheWriteTokens: number;
  readonly costUsd?: number | undefined;
  readonly targets: readonly { readonly provider: string; readonly model: string }[];
  readonly attempts: readonly AttemptFields[];
  readonly steps: readonly StepFields[];
  readonly toolCalls: readonly ToolCallFields[];
}

/** Tool arguments as JSON text (content only): what cannot be JSON is named, never thrown. */
function argumentsText(value: unknown): string {
  try {
    return JSON.stringify(value) ?? 'undefined';
  } catch {
    return '[arguments that are not JSON]';
  }
}

// Each part is written as its strings, then its numbers in one reserved block, in the order
// read back below (a call a field would cost more than the fields).

function writeAttempt(writer: SlabWriter, attempt: AttemptRecord, content: boolean): void {
  writer.string(attempt.toolCallId);
  writer.name(attempt.errorKind, ERROR_KINDS);
  writer.string(content ? attempt.rawOutput : undefined);
  const spent = attempt.usage;
  const at = writer.reserve(14);
  const slots = writer.slots;
  slots[at] = attempt.step;
  slots[at + 1] = attempt.attempt;
  slots[at + 2] = codeOf(PURPOSES, attempt.purpose);
  slots[at + 3] = attempt.providerIndex;
  slots[at + 4] = codeOf(ATTEMPT_STATUSES, attempt.status);
  slots[at + 5] = attempt.issues.length;
  slots[at + 6] = attempt.elapsedMs;
  slots[at + 7] = spent.inputTokens;
  slots[at + 8] = spent.outputTokens;
  slots[at + 9] = spent.cacheReadTokens;
  slots[at + 10] = spent.cacheWriteTokens;
  slots[at + 11] = spent.costUsd ?? Number.NaN;
  slots[at + 12] = attempt.feedbackSent ? 1 : 0;
  slots[at + 13] = codeOf(VIAS, attempt.via);
}

function readAttempt(reader: EntryReader): AttemptFields {
  const toolCallId = reader.string();
  const errorKind = reader.name(ERROR_KINDS) ?? '';
  const rawOutput = reader.string();
  return {
    step: reader.number(),
    attempt: reader.number(),
    purpose: nameOf(PURPOSES, reader.number()),
    toolCallId,
    providerIndex: reader.number(),
    status: nameOf(ATTEMPT_STATUSES, reader.number()),
    errorKind,
    issueCount: reader.number(),
    latencyMs: reader.number(),
    inputTokens: reader.number(),
    outputTokens: reader.number(),
    cacheReadTokens: reader.number(),
    cacheWriteTokens: reader.number(),
    costUsd: reader.optional(),
    feedbackSent: reader.number() === 1,
    via: VIAS[reader.number()],
    rawOutput,
  };
}

function writeStep(writer: SlabWriter, step: StepRecord, content: boolean): void {
  writer.name(step.finishReason, FINISH_REASONS);
  writer.string(content ? step.text : undefined);
  const at = writer.reserve(4);
  const slots = writer.slots;
  slots[at] = step.step;
  slots[at + 1] = step.toolCalls;
  slots[at + 2] = step.modelCalls;
  slots[at + 3] = step.durationMs;
}

function readStep(reader: EntryReader): StepFields {
  const finishReason = reader.name(FINISH_REASONS) ?? '';
  const text = reader.string();
  return { step: reader.number(), finishReason, toolCalls: reader.number(), modelCalls: reader.number(), durationMs: reader.number(), text };
}

function writeToolCall(writer: SlabWriter, call: ToolCallRecord, content: boolean): void {
  writer.string(call.id);
  writer.string(call.name);
  writer.string(call.errorCode);
  writer.string(content ? argumentsText(call.arguments) : undefined);
  writer.string(content ? call.output : undefined);
  const at = writer.reserve(4);
  const slots = writer.slots;
  slots[at] = call.step;
  slots[at + 1] = call.isError ? 1 : 0;
  slots[at + 2] = call.durationMs;
  slots[at + 3] = call.coercions?.length ?? 0;
}

function readToolCall(reader: EntryReader): ToolCallFields {
  const toolCallId = reader.string() ?? '';
  const tool = reader.string() ?? '';
  const errorCode = reader.string();
  const callArguments = reader.string();
  const output = reader.string();
  return { toolCallId, tool, step: reader.number(), isError: reader.number() === 1, errorCode, durationMs: reader.number(), coercions: reader.number(), arguments: callArguments, output };
}

function writeRun(writer: SlabWriter, run: RecordedRun, content: boolean): void {
  const { record } = run;
  writer.string(run.runId);
  writer.string(run.parentRunId);
  writer.string(run.parentToolCallId);
  writer.name(record.finishReason, FINISH_REASONS);
  writer.string(run.errorName);
  writer.string(content ? run.errorMessage : undefined);
  const usage = record.usage;
  const at = writer.reserve(10);
  const slots = writer.slots;
  slots[at] = codeOf(STATUSES, run.status);
  slots[at + 1] = record.startedAt;
  slots[at + 2] = record.durationMs;
  slots[at + 3] = run.loopsDetected;
  slots[at + 4] = usage.modelCalls;
  slots[at + 5] = usage.inputTokens;
  slots[at + 6] = usage.outputTokens;
  slots[at + 7] = usage.cacheReadTokens;
  slots[at + 8] = usage.cacheWriteTokens;
  slots[at + 9] = usage.costUsd ?? Number.NaN;
}

/**
 * Writes a run's record as one entry: Keel's own vocabulary always, and the content (raw outputs,
 * step texts, tool arguments and outputs, the error's message) only with `content`.
 */
export function writeRecord(writer: SlabWriter, run: RecordedRun, content: boolean): void {
  writeRun(writer, run, content);
  writer.number(run.targets.length);
  for (const target of run.targets) {
    writer.string(target.provider);
    writer.string(target.model);
  }
  const { ownAttempts, record } = run;
  writer.number(ownAttempts.length);
  for (const attempt of ownAttempts) writeAttempt(writer, attempt, content);
  writer.number(record.steps.length);
  for (const step of record.steps) writeStep(writer, step, content);
  writer.number(record.toolCalls.length);
  for (const call of record.toolCalls) writeToolCall(writer, call, content);
}

/** A list of `count` items read by `item`; a count that is not a small whole number is a broken entry. */
function listOf<T>(reader: EntryReader, item: () => T): T[] {
  const count = reader.number();
  if (!Number.isInteger(count) || count < 0 || count > 10_000_000) throw new RangeError('a trace entry holds a broken list length');
  const items: T[] = [];
  for (let index = 0; index < count; index++) items.push(item());
  return items;
}

/** Reads back what {@link writeRecord} wrote, in the same order. */
export function readRecord(reader: EntryReader): RecordFields {
  const runId = reader.string() ?? '';
  const parentRunId = reader.string();
  const parentToolCallId = reader.string();
  const finishReason = reader.name(FINISH_REASONS) ?? '';
  const errorName = reader.string();
  const errorMessage = reader.string();
  const run = {
    runId,
    parentRunId,
    parentToolCallId,
    status: nameOf(STATUSES, reader.number()),
    startedAt: reader.number(),
    durationMs: reader.number(),
    finishReason,
    loopsDetected: reader.number(),
    errorName,
    errorMessage,
    modelCalls: reader.number(),
    inputTokens: reader.number(),
    outputTokens: reader.number(),
    cacheReadTokens: reader.number(),
    cacheWriteTokens: reader.number(),
    costUsd: reader.optional(),
  };
  const targets = listOf(reader, () => ({ provider: reader.string() ?? '', model: reader.string() ?? '' }));
  const attempts = listOf(reader, () => readAttempt(reader));
  const steps = listOf(reader, () => readStep(reader));
  const toolCalls = listOf(reader, () => readToolCall(reader));
  return { ...run, targets, attempts, steps, toolCalls };
}
