import { parseTraceLine, type ReadEvent } from '../view/parse-trace-line';

type Fields = Readonly<Record<string, unknown>>;

/** One trace line as the file holds it, read back as the viewer reads it (throws on a line the viewer would skip). */
export function line(event: string, payload: Fields): ReadEvent {
  const read = parseTraceLine(JSON.stringify({ event, payload: { step: 1, timestamp: 1000, ...payload } }));
  if (!read) throw new Error(`not a trace line: ${event} ${JSON.stringify(payload)}`);
  return read;
}

/** A call's usage fields, as a record's entry and totals spell them. */
export const usage = (inputTokens: number, outputTokens: number, costUsd: number) => ({ inputTokens, outputTokens, costUsd });

/** A model call of a record: an accepted step call of step 1, attempt 1, unless `fields` say otherwise. */
export function recordAttempt(fields: Fields = {}): Fields {
  return {
    step: 1,
    attempt: 1,
    purpose: 'step',
    provider: 'scripted',
    model: 'claude-sonnet-4-6',
    status: 'ok',
    errorKind: 'ok',
    issueCount: 0,
    latencyMs: 1.5,
    inputTokens: 1000,
    outputTokens: 20,
    cacheReadTokens: 0,
    cacheWriteTokens: 0,
    costUsd: 0.0033,
    feedbackSent: false,
    ...fields,
  };
}

/**
 * A `run.record` line, ended `ok` at step 1 with no calls unless
 * `fields` say otherwise; usage totals are the caller's to give.
 */
export function recordLine(runId: string, fields: Fields = {}): ReadEvent {
  return line('run.record', {
    runId,
    step: 1,
    timestamp: 2000,
    status: 'ok',
    startedAt: 1000,
    durationMs: 1000,
    finishReason: 'stop',
    provider: 'scripted',
    model: 'claude-sonnet-4-6',
    modelCalls: 0,
    inputTokens: 0,
    outputTokens: 0,
    cacheReadTokens: 0,
    cacheWriteTokens: 0,
    attempts: [],
    steps: [],
    toolCalls: [],
    ...fields,
  });
}
