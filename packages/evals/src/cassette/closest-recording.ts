import type { CassetteDifference } from '../errors/cassette-error';
import type { JsonObject, JsonValue } from './canonical-request';

/** A recorded request as the search sees it. */
export interface RecordedRequest {
  /** Its index in the cassette file. */
  readonly index: number;
  readonly call: string;
  readonly request: JsonObject;
}

/** Longest quoted value in a difference, in characters. */
const QUOTE_LIMIT = 240;

const text = (value: JsonValue | undefined) => (value === undefined ? undefined : JSON.stringify(value));
const messagesOf = (request: JsonObject): readonly JsonValue[] => (Array.isArray(request['messages']) ? (request['messages'] as readonly JsonValue[]) : []);

/** Both texts cut to the same window, starting a little before the first character where they differ. */
function quoteDifference(recorded: string | undefined, requested: string | undefined): { recorded: string; requested: string } {
  if (recorded === undefined || requested === undefined) return { recorded: cut(recorded ?? '(none)', 0), requested: cut(requested ?? '(none)', 0) };
  let at = 0;
  while (at < recorded.length && at < requested.length && recorded[at] === requested[at]) at++;
  const start = Math.max(0, at - 40);
  return { recorded: cut(recorded, start), requested: cut(requested, start) };
}

function cut(value: string, start: number): string {
  const window = value.slice(start, start + QUOTE_LIMIT);
  return `${start > 0 ? '…' : ''}${window}${start + QUOTE_LIMIT < value.length ? '…' : ''}`;
}

/** How many leading messages two requests share. */
function sharedMessages(left: JsonObject, right: JsonObject): number {
  const a = messagesOf(left);
  const b = messagesOf(right);
  let shared = 0;
  while (shared < a.length && shared < b.length && text(a[shared]) === text(b[shared])) shared++;
  return shared;
}

/** Fields of the request (other than messages) whose values differ. */
function differingFields(left: JsonObject, right: JsonObject): string[] {
  const keys = [...new Set([...Object.keys(left), ...Object.keys(right)])].filter((key) => key !== 'messages');
  return keys.filter((key) => text(left[key]) !== text(right[key])).sort((a, b) => (a === 'system' ? -1 : b === 'system' ? 1 : a.localeCompare(b)));
}

/** The first place where `requested` parts from `recorded`: the system prompt, then messages in order, then other fields. */
function firstDifference(recorded: RecordedRequest, call: string, requested: JsonObject): CassetteDifference {
  const base = { recording: recorded.index };
  const fields = differingFields(recorded.request, requested);
  if (fields[0] === 'system') return { ...base, path: 'system', ...quoteDifference(text(recorded.request['system']), text(requested['system'])) };
  const shared = sharedMessages(recorded.request, requested);
  const before = messagesOf(recorded.request);
  const after = messagesOf(requested);
  if (shared < before.length || shared < after.length) {
    const message = after[shared] ?? before[shared];
    const role = typeof message === 'object' && message !== null && !Array.isArray(message) ? (message as JsonObject)['role'] : undefined;
    return { ...base, path: `messages[${shared}]`, ...(typeof role === 'string' ? { role } : {}), ...quoteDifference(text(before[shared]), text(after[shared])) };
  }
  const field = fields[0];
  if (field !== undefined) return { ...base, path: field, ...quoteDifference(text(recorded.request[field]), text(requested[field])) };
  return { ...base, path: 'call', recorded: recorded.call, requested: call };
}

/**
 * The recorded request closest to `requested` (the most leading messages in common, then the
 * fewest other fields that differ, then the same call kind, then the earliest), and the first
 * place where they differ. `undefined` when nothing is recorded.
 */
export function closestDifference(recordings: readonly RecordedRequest[], call: string, requested: JsonObject): CassetteDifference | undefined {
  let best: { recording: RecordedRequest; score: readonly number[] } | undefined;
  for (const recording of recordings) {
    const score = [sharedMessages(recording.request, requested), -differingFields(recording.request, requested).length, recording.call === call ? 1 : 0];
    if (!best || isBetter(score, best.score)) best = { recording, score };
  }
  return best && firstDifference(best.recording, call, requested);
}

function isBetter(score: readonly number[], than: readonly number[]): boolean {
  for (const [index, value] of score.entries()) {
    const other = than[index] ?? 0;
    if (value !== other) return value > other;
  }
  return false;
}
