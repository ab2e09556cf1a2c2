import { canonicalHash } from './canonical-hash';

/**
 * A string as loops compare it: a line (a query, a name) trimmed with each run of whitespace one
 * space; text of several lines (code, a file, YAML), where layout may be meaning, as it is.
 */
const squeezed = (text: string): string => (/[\n\r]/.test(text) ? text : text.replace(/\s+/g, ' ').trim());

/** Arguments as loops compare them: strings squeezed, object fields that are `null` left out. */
function comparable(value: unknown, seen: Set<object>): unknown {
  if (typeof value === 'string') return squeezed(value);
  if (value === null || typeof value !== 'object' || seen.has(value)) return value;
  seen.add(value);
  let out: unknown;
  if (Array.isArray(value)) out = value.map((entry: unknown) => comparable(entry, seen));
  else {
    const fields: Record<string, unknown> = {};
    for (const [key, entry] of Object.entries(value)) if (entry !== null) fields[key] = comparable(entry, seen);
    out = fields;
  }
  seen.delete(value);
  return out;
}

/**
 * The hash a tool call's arguments are compared by when looking for loops: the
 * {@link canonicalHash} of the arguments with every one-line string trimmed and its whitespace
 * runs made one space (text of several lines is kept as it is: indentation may be meaning), and
 * object fields that are `null` left out (as an absent optional field). So
 * `{ q: 'rust  async', page: null }` and `{ q: 'rust async ' }` are the same call. Only calls
 * that also returned the same result make a loop, so this never merges calls that did different
 * things. A value that cannot be read (a throwing getter) hashes as {@link canonicalHash} reads it.
 */
export function loopArgumentsHash(value: unknown): string {
  try {
    return canonicalHash(comparable(value, new Set()));
  } catch {
    return canonicalHash(value);
  }
}

/**
 * A request id, in JSON or in text: `"requestId": "req_9"`, `x-request-id: 7f3a`, `trace id=42`
 * (`request`, `trace`, `span` or `correlation`, then `id`, joined by nothing, `_`, `-` or a space).
 */
const ID_MENTION = /\b((?:request|trace|span|correlation)[ _-]?id["']?\s*[:=]\s*)(?:"(?:[^"\\]|\\.)*"|'[^']*'|[^\s,;)}\]]+)/gi;

/**
 * The value of a JSON field that says when the answer was made, rather than what it is:
 * `"checkedAt": "2026-11-28T05:12:51Z"`, `"timestamp": 1764306771`.
 */
const TIME_FIELD = /("(?:timestamp|ts|now|server[_-]?time|(?:checked|fetched|retrieved|generated|served|received|queried|polled)(?:at|_at))"\s*:\s*)(?:"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?)/gi;

/**
 * The hash a tool's result is compared by when looking for loops: the {@link canonicalHash} of
 * what the model read (an error's text included), with what changes on every call without saying
 * anything new masked: request ids (`requestId`, `traceId`, `spanId`, `correlationId`, also with
 * `_`, `-` or a space, as a JSON field or in text such as `x-request-id: 7f3a`), and the values of
 * JSON fields that say when the answer was made: `timestamp`, `ts`, `now`, `serverTime`,
 * `checkedAt`, `fetchedAt`, `retrievedAt`, `generatedAt`, `servedAt`, `receivedAt`, `queriedAt`,
 * `polledAt` (also as `checked_at`...). A search that returns the same hits with a fresh request
 * id is the same result; data that changes, `updatedAt` and `createdAt` included, is progress.
 */
export function loopResultHash(output: string): string {
  return canonicalHash(output.replace(ID_MENTION, '$1…').replace(TIME_FIELD, '$1"…"'));
}
