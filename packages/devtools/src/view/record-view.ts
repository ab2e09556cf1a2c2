import { count, defined, flag, isObject, type Payload, text } from './fields';
import type { AttemptDraft, SegmentDraft, StepDraft, ToolDraft } from './run-builder';

/** How many model calls, steps and tool calls a run's record holds: a later record of the run holds them first. */
export interface RecordCounts {
  readonly attempts: number;
  readonly steps: number;
  readonly toolCalls: number;
}

/** What came before a record of a run: the counts and duration of the run's previous record. */
export interface PreviousRecord {
  readonly counts: RecordCounts;
  readonly durationMs?: number;
}

/** One segment of a run, read from the record that ended it. */
export interface RecordSegment {
  readonly segment: SegmentDraft;
  /** The segment's model calls, in the record's order. */
  readonly attempts: AttemptDraft[];
  /** The record's own counts, for the next record of the run. */
  readonly previous: PreviousRecord;
}

/** The entries of a list field of a record (none when it is not a list). */
export const entriesOf = (record: Payload, field: string): readonly unknown[] => (Array.isArray(record[field]) ? (record[field] as unknown[]) : []);

const countsOf = (record: Payload): RecordCounts => ({ attempts: entriesOf(record, 'attempts').length, steps: entriesOf(record, 'steps').length, toolCalls: entriesOf(record, 'toolCalls').length });

/** A model call of a record (`key`: unique within the run). Usage only when it answered: a call that failed before answering has none. */
function attemptOf(entry: Payload, key: string): AttemptDraft {
  const status = text(entry, 'status');
  const inputTokens = count(entry, 'inputTokens') ?? 0;
  const outputTokens = count(entry, 'outputTokens') ?? 0;
  const costUsd = count(entry, 'costUsd');
  const answered = status !== 'error' || inputTokens + outputTokens > 0 || (costUsd ?? 0) > 0;
  return {
    key,
    step: entry.step as number,
    attempt: count(entry, 'attempt') ?? 0,
    purpose: text(entry, 'purpose') ?? 'step',
    provider: text(entry, 'provider') ?? '',
    model: text(entry, 'model') ?? '',
    ...defined({
      toolCallId: text(entry, 'toolCallId'),
      status,
      errorKind: text(entry, 'errorKind'),
      issueCount: count(entry, 'issueCount'),
      feedbackSent: flag(entry, 'feedbackSent'),
      via: text(entry, 'via'),
      answer: text(entry, 'rawOutput'),
    }),
    ...(answered
      ? { response: { inputTokens, outputTokens, cacheReadTokens: count(entry, 'cacheReadTokens') ?? 0, cacheWriteTokens: count(entry, 'cacheWriteTokens') ?? 0, ...defined({ costUsd, latencyMs: count(entry, 'latencyMs') }) } }
      : {}),
    issues: [],
    notes: [],
  };
}

/** A step of a record; its end only when the record says how many tool calls it made (none: the final answer). */
function stepOf(entry: Payload): StepDraft {
  const toolCalls = count(entry, 'toolCalls');
  const step: StepDraft = { step: entry.step as number, attempts: [], tools: [], notes: [] };
  if (toolCalls !== undefined) step.end = { finishReason: text(entry, 'finishReason') ?? '', toolCalls, final: toolCalls === 0 };
  return step;
}

/** A tool call of a record. */
function toolOf(entry: Payload): ToolDraft {
  return {
    toolCallId: text(entry, 'toolCallId') ?? '',
    children: [],
    ...defined({ tool: text(entry, 'tool'), isError: flag(entry, 'isError'), errorCode: text(entry, 'errorCode'), durationMs: count(entry, 'durationMs'), coercions: count(entry, 'coercions') }),
  };
}

/** The entries of `field` beyond the previous record's count that are objects with a step; `skipped`: how many were not. */
function newEntries(record: Payload, field: keyof RecordCounts, from: number): { readonly entries: Payload[]; readonly skipped: number } {
  const fresh = entriesOf(record, field).slice(from);
  const entries = fresh.filter((entry): entry is Payload => isObject(entry) && count(entry, 'step') !== undefined);
  return { entries, skipped: fresh.length - entries.length };
}

/**
 * Turns one `run.record` payload into the segment it ended: its steps, model calls and tool
 * calls beyond those of the run's previous record (a resumed run's lists are cumulative), the
 * provider and model, how it ended. A segment after a resume lasted the difference of the two
 * records' cumulative durations. Entries that cannot be read are counted in a note, never
 * dropped silently. `firstKey`: the key number of the segment's first model call.
 */
export function recordSegment(record: Payload, previous: PreviousRecord | undefined, startedAt: number, firstKey: number): RecordSegment {
  const from = previous?.counts ?? { attempts: 0, steps: 0, toolCalls: 0 };
  const segment: SegmentDraft = { startedAt, provider: text(record, 'provider') ?? '', model: text(record, 'model') ?? '', steps: [], notes: [] };
  const stepOfNumber = (number: number): StepDraft => {
    let step = segment.steps.find((candidate) => candidate.step === number);
    if (!step) segment.steps.push((step = { step: number, attempts: [], tools: [], notes: [] }));
    return step;
  };
  const steps = newEntries(record, 'steps', from.steps);
  for (const entry of steps.entries) {
    const step = stepOf(entry);
    const known = segment.steps.find((candidate) => candidate.step === step.step);
    if (known) Object.assign(known, defined({ end: step.end }));
    else segment.steps.push(step);
  }
  const attemptEntries = newEntries(record, 'attempts', from.attempts);
  const attempts = attemptEntries.entries.map((entry, index) => attemptOf(entry, String(firstKey + index)));
  for (const attempt of attempts) stepOfNumber(attempt.step).attempts.push(attempt);
  const tools = newEntries(record, 'toolCalls', from.toolCalls);
  for (const entry of tools.entries) stepOfNumber(entry.step as number).tools.push(toolOf(entry));
  segment.steps.sort((a, b) => a.step - b.step);

  const skipped = [`${steps.skipped} step(s)`, `${attemptEntries.skipped} model call(s)`, `${tools.skipped} tool call(s)`].filter((part) => !part.startsWith('0 '));
  if (skipped.length > 0) segment.notes.push(`the run's record holds ${skipped.join(', ')} that could not be read (not an object with a step)`);
  const lost = (Object.keys(from) as (keyof RecordCounts)[]).filter((field) => entriesOf(record, field).length < from[field]);
  if (lost.length > 0) segment.notes.push(`the run's record holds fewer ${lost.join(', ')} than its previous record: the lists were not cumulative, what this segment did is unknown`);
  const loops = count(record, 'loopsDetected');
  if (loops !== undefined && loops > 0) segment.notes.push(`${loops} action loop(s) detected`);

  const durationMs = count(record, 'durationMs');
  const before = previous?.durationMs;
  const own = durationMs === undefined ? undefined : previous === undefined ? durationMs : before !== undefined && durationMs >= before ? durationMs - before : undefined;
  if (durationMs !== undefined && before !== undefined && durationMs < before) {
    segment.notes.push(`the run's record lasted ${durationMs.toFixed(1)} ms, less than its previous record's ${before.toFixed(1)} ms, though a resumed run's duration is cumulative: this segment's own duration is unknown`);
  }
  segment.end = { status: text(record, 'status') ?? 'ended', ...defined({ durationMs: own, errorName: text(record, 'errorName'), errorMessage: text(record, 'errorMessage') }) };
  return { segment, attempts, previous: { counts: countsOf(record), ...defined({ durationMs }) } };
}
