import type { AttemptFields, RecordFields, StepFields, ToolCallFields } from './record-entry';

/** A tool call's name is content when the model made it up (an unknown tool): then it is written only with content. */
const MADE_UP_NAME = 'unknown-tool';

/** Writes the JSON of one object, field by field: a value left `undefined` leaves its key out. */
class JsonObject {
  private text = '{';

  constructor(private readonly quote: (text: string) => string) {}

  string(key: string, value: string | undefined): this {
    if (value !== undefined) this.raw(key, this.quote(value));
    return this;
  }

  /** A number as JSON writes it (`null` when not finite). */
  number(key: string, value: number | undefined): this {
    if (value !== undefined) this.raw(key, Number.isFinite(value) ? `${value}` : 'null');
    return this;
  }

  /** Milliseconds, to the microsecond (a clock's last digits say nothing and cost bytes). */
  duration(key: string, value: number): this {
    return this.number(key, Math.round(value * 1000) / 1000);
  }

  boolean(key: string, value: boolean): this {
    return this.raw(key, value ? 'true' : 'false');
  }

  /** JSON text as it is (an array or object already made). */
  raw(key: string, json: string): this {
    this.text += `${this.text.length === 1 ? '' : ','}"${key}":${json}`;
    return this;
  }

  close(): string {
    return `${this.text}}`;
  }
}

type Quote = (text: string) => string;

function attemptJson(attempt: AttemptFields, targets: RecordFields['targets'], quote: Quote): string {
  const target = targets[attempt.providerIndex];
  return new JsonObject(quote)
    .number('step', attempt.step)
    .number('attempt', attempt.attempt)
    .string('purpose', attempt.purpose)
    .string('toolCallId', attempt.toolCallId)
    .string('provider', target?.provider ?? '')
    .string('model', target?.model ?? '')
    .string('status', attempt.status)
    .string('errorKind', attempt.errorKind)
    .number('issueCount', attempt.issueCount)
    .duration('latencyMs', attempt.latencyMs)
    .number('inputTokens', attempt.inputTokens)
    .number('outputTokens', attempt.outputTokens)
    .number('cacheReadTokens', attempt.cacheReadTokens)
    .number('cacheWriteTokens', attempt.cacheWriteTokens)
    .number('costUsd', attempt.costUsd)
    .boolean('feedbackSent', attempt.feedbackSent)
    .string('via', attempt.via)
    .string('rawOutput', attempt.rawOutput)
    .close();
}

function stepJson(step: StepFields, quote: Quote): string {
  return new JsonObject(quote)
    .number('step', step.step)
    .string('finishReason', step.finishReason)
    .number('toolCalls', step.toolCalls)
    .number('modelCalls', step.modelCalls)
    .duration('durationMs', step.durationMs)
    .string('text', step.text)
    .close();
}

function toolCallJson(call: ToolCallFields, content: boolean, quote: Quote): string {
  return new JsonObject(quote)
    .string('toolCallId', call.toolCallId)
    .string('tool', content || call.errorCode !== MADE_UP_NAME ? call.tool : undefined)
    .number('step', call.step)
    .boolean('isError', call.isError)
    .string('errorCode', call.errorCode)
    .duration('durationMs', call.durationMs)
    .number('coercions', call.coercions > 0 ? call.coercions : undefined)
    .string('arguments', call.arguments)
    .string('output', call.output)
    .close();
}

const list = <T>(items: readonly T[], json: (item: T) => string): string => `[${items.map(json).join(',')}]`;

/**
 * The `run.record` line of a run (with its newline): the run's ids, how it ended, its usage, and
 * its own model calls, steps and tool calls (docs/devtools.md lists every field). Content is in
 * the line only if it was written into the entry (`recordContent`). Absent values are left out;
 * every string is quoted by `quote`, which replaces secrets.
 */
export function recordLine(fields: RecordFields, content: boolean, quote: Quote): string {
  const primary = fields.targets[0];
  let step = 0;
  for (const items of [fields.attempts, fields.steps, fields.toolCalls]) for (const item of items) step = Math.max(step, item.step);
  const payload = new JsonObject(quote)
    .string('runId', fields.runId)
    .string('parentRunId', fields.parentRunId)
    .string('parentToolCallId', fields.parentToolCallId)
    .number('step', step)
    // When the run ended, as its start and duration tell (a resumed run's duration leaves out the time it waited).
    .number('timestamp', Math.round(fields.startedAt + fields.durationMs))
    .string('status', fields.status)
    .number('startedAt', fields.startedAt)
    .duration('durationMs', fields.durationMs)
    .string('finishReason', fields.finishReason)
    .string('provider', primary?.provider ?? '')
    .string('model', primary?.model ?? '')
    .number('loopsDetected', fields.loopsDetected > 0 ? fields.loopsDetected : undefined)
    .string('errorName', fields.errorName)
    .string('errorMessage', fields.errorMessage)
    .number('modelCalls', fields.modelCalls)
    .number('inputTokens', fields.inputTokens)
    .number('outputTokens', fields.outputTokens)
    .number('cacheReadTokens', fields.cacheReadTokens)
    .number('cacheWriteTokens', fields.cacheWriteTokens)
    .number('costUsd', fields.costUsd)
    .raw('attempts', list(fields.attempts, (attempt) => attemptJson(attempt, fields.targets, quote)))
    .raw('steps', list(fields.steps, (item) => stepJson(item, quote)))
    .raw('toolCalls', list(fields.toolCalls, (call) => toolCallJson(call, content, quote)))
    .close();
  return `{"event":"run.record","payload":${payload}}\n`;
}
