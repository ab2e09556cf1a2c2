import type { RecordedRun } from '@keel/core';
import type { EntryReader, SlabWriter } from './trace-slabs';

/**
 * A run's record as a slab entry, and that entry as the run's `run.record` line: each part is
 * written (on the run's thread) as its strings, then its numbers in one reserved block, and read
 * back (on the writing thread) in the same order straight into JSON text, with no object between.
 * docs/devtools.md lists the line's fields.
 */

type AttemptRecord = RecordedRun['ownAttempts'][number];
type StepRecord = RecordedRun['record']['steps'][number];
type ToolCallRecord = RecordedRun['record']['toolCalls'][number];
/** Quotes a string as JSON, its secrets replaced (`jsonQuoter`). */
type Quote = (text: string) => string;

/** Names usually seen, written as one slot each (any other is written whole). */
const FINISH_REASONS = ['stop', 'tool-calls', 'length', 'content-filter', 'refusal', 'error', 'other'];
const ERROR_KINDS = ['ok', 'rate-limit', 'overloaded', 'server-error', 'timeout', 'network', 'schema-fail', 'parse-fail', 'rule-rejected', 'no-tool-call', 'guard-rejected', 'refusal', 'truncated', 'auth', 'bad-request', 'context-overflow', 'schema-refused', 'bad-response', 'aborted', 'unknown'];

/** Closed sets, written as their index. */
const STATUSES = ['ok', 'error', 'aborted', 'suspended'];
const PURPOSES = ['step', 'tool-re-ask', 'summary'];
const ATTEMPT_STATUSES = ['ok', 'invalid', 'error'];
const VIAS = [undefined, 'patch', 'continuation'];

/** A tool call's name is content when the model made it up (an unknown tool): then it is written only with content. */
const MADE_UP_NAME = 'unknown-tool';

const codeOf = (list: readonly (string | undefined)[], value: string | undefined): number => list.indexOf(value);
const nameOf = (list: readonly (string | undefined)[], code: number): string => list[code] ?? 'unknown';

/** `,"key":"value"` for a string that is there, else nothing. */
const text = (key: string, value: string | undefined, quote: Quote): string => (value === undefined ? '' : `,"${key}":${quote(value)}`);
/** A number as JSON writes it (`null` when not finite). */
const json = (value: number): string => (Number.isFinite(value) ? `${value}` : 'null');
/** `,"key":n` for a number that is there (written as NaN when absent), else nothing. */
const optional = (key: string, value: number): string => (Number.isNaN(value) ? '' : `,"${key}":${value}`);
/** Milliseconds to the microsecond: a clock's last digits say nothing and cost bytes. */
const ms = (value: number): string => json(Math.round(value * 1000) / 1000);

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

/** A model call's JSON object; `targets` name its provider and model. */
function attemptJson(reader: EntryReader, targets: readonly string[], quote: Quote, steps: { last: number }): string {
  const toolCallId = reader.string();
  const errorKind = reader.name(ERROR_KINDS) ?? '';
  const rawOutput = reader.string();
  const step = reader.number();
  steps.last = Math.max(steps.last, step);
  const attempt = reader.number();
  const purpose = nameOf(PURPOSES, reader.number());
  const target = reader.number();
  const status = nameOf(ATTEMPT_STATUSES, reader.number());
  const head = `{"step":${step},"attempt":${attempt},"purpose":"${purpose}"${text('toolCallId', toolCallId, quote)},"provider":${targets[target * 2] ?? '""'},"model":${targets[target * 2 + 1] ?? '""'}`;
  const outcome = `,"status":"${status}","errorKind":${quote(errorKind)},"issueCount":${reader.number()},"latencyMs":${ms(reader.number())}`;
  const usage = `,"inputTokens":${reader.number()},"outputTokens":${reader.number()},"cacheReadTokens":${reader.number()},"cacheWriteTokens":${reader.number()}${optional('costUsd', reader.number())}`;
  const feedbackSent = reader.number() === 1;
  const via = VIAS[reader.number()];
  return `${head}${outcome}${usage},"feedbackSent":${feedbackSent}${text('via', via, quote)}${text('rawOutput', rawOutput, quote)}}`;
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

function stepJson(reader: EntryReader, quote: Quote, steps: { last: number }): string {
  const finishReason = reader.name(FINISH_REASONS) ?? '';
  const stepText = reader.string();
  const step = reader.number();
  steps.last = Math.max(steps.last, step);
  return `{"step":${step},"finishReason":${quote(finishReason)},"toolCalls":${reader.number()},"modelCalls":${reader.number()},"durationMs":${ms(reader.number())}${text('text', stepText, quote)}}`;
}

/** Tool arguments as JSON text (content only): what cannot be JSON is named, never thrown. */
function argumentsText(value: unknown): string {
  try {
    return JSON.stringify(value) ?? 'undefined';
  } catch {
    return '[arguments that are not JSON]';
  }
}

function writeToolCall(writer: SlabWriter, call: ToolCallRecord, content: boolean): void {
  writer.string(call.id);
  writer.string(content || call.errorCode !== MADE_UP_NAME ? call.name : undefined);
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

function toolCallJson(reader: EntryReader, quote: Quote, steps: { last: number }): string {
  const id = reader.string() ?? '';
  const tool = reader.string();
  const errorCode = reader.string();
  const callArguments = reader.string();
  const output = reader.string();
  const step = reader.number();
  steps.last = Math.max(steps.last, step);
  const isError = reader.number() === 1;
  const durationMs = ms(reader.number());
  const coercions = reader.number();
  return `{"toolCallId":${quote(id)}${text('tool', tool, quote)},"step":${step},"isError":${isError}${text('errorCode', errorCode, quote)},"durationMs":${durationMs}${coercions > 0 ? `,"coercions":${coercions}` : ''}${text('arguments', callArguments, quote)}${text('output', output, quote)}}`;
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

/** The run's own fields, and when it ended (its start and duration: a resumed run's duration leaves out the time it waited). */
function runJson(reader: EntryReader, quote: Quote): { json: string; endedAt: number } {
  const runId = reader.string() ?? '';
  const parentRunId = reader.string();
  const parentToolCallId = reader.string();
  const finishReason = reader.name(FINISH_REASONS) ?? '';
  const errorName = reader.string();
  const errorMessage = reader.string();
  const status = nameOf(STATUSES, reader.number());
  const startedAt = reader.number();
  const durationMs = reader.number();
  const loops = reader.number();
  const ids = `"runId":${quote(runId)}${text('parentRunId', parentRunId, quote)}${text('parentToolCallId', parentToolCallId, quote)}`;
  const ending = `,"status":"${status}","startedAt":${json(startedAt)},"durationMs":${ms(durationMs)},"finishReason":${quote(finishReason)}${loops > 0 ? `,"loopsDetected":${loops}` : ''}${text('errorName', errorName, quote)}${text('errorMessage', errorMessage, quote)}`;
  const usage = `,"modelCalls":${reader.number()},"inputTokens":${reader.number()},"outputTokens":${reader.number()},"cacheReadTokens":${reader.number()},"cacheWriteTokens":${reader.number()}${optional('costUsd', reader.number())}`;
  return { json: `${ids}${ending}${usage}`, endedAt: startedAt + durationMs };
}

/**
 * Writes a run's record as one entry: Keel's own vocabulary always, and the content (raw outputs,
 * step texts, tool arguments and outputs, the error's message, a tool name the model made up)
 * only with `content`.
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

/** A list's JSON: its length, then each item as `item` reads it; a length that is not a small whole number is a broken entry. */
function listJson(reader: EntryReader, item: () => string): string {
  const count = reader.number();
  if (!Number.isInteger(count) || count < 0 || count > 10_000_000) throw new RangeError('a trace entry holds a broken list length');
  let items = '';
  for (let index = 0; index < count; index++) items += index === 0 ? item() : `,${item()}`;
  return `[${items}]`;
}

/** The `run.record` line (with its newline) of the entry {@link writeRecord} wrote; every string quoted by `quote`. */
export function recordLine(reader: EntryReader, quote: Quote): string {
  const run = runJson(reader, quote);
  const targets: string[] = [];
  const targetCount = reader.number();
  if (!Number.isInteger(targetCount) || targetCount < 0 || targetCount > 1000) throw new RangeError('a trace entry holds a broken list length');
  for (let index = 0; index < targetCount; index++) targets.push(quote(reader.string() ?? ''), quote(reader.string() ?? ''));
  const steps = { last: 0 };
  const attempts = listJson(reader, () => attemptJson(reader, targets, quote, steps));
  const stepList = listJson(reader, () => stepJson(reader, quote, steps));
  const toolCalls = listJson(reader, () => toolCallJson(reader, quote, steps));
  const primary = `,"provider":${targets[0] ?? '""'},"model":${targets[1] ?? '""'}`;
  return `{"event":"run.record","payload":{${run.json}${primary},"step":${steps.last},"timestamp":${Math.round(run.endedAt)},"attempts":${attempts},"steps":${stepList},"toolCalls":${toolCalls}}}\n`;
}
