/**
 * The canonical form of a request, as a cassette stores and matches it: plain JSON (undefined
 * fields dropped), object keys sorted, and the values the run itself makes normalised, so a
 * replay still matches when they differ: tool-call ids become `<call-1>`, `<call-2>`... in order
 * of first appearance, and UUIDs and ISO-8601 date-times inside tool results (tools run again at
 * replay: a created ticket's id, the time a check was made) become `<uuid>` and `<timestamp>`.
 * Everything else is compared as it is: the system prompt and the user's messages are what the
 * test gave (another order id is another request), and the model's own turns are replayed word for
 * word. Text the test knows to be volatile (today's date in a prompt) is named by the cassette's
 * `volatile` patterns, each match read as `<volatile>` wherever it is.
 */

/** A JSON value. */
export type JsonValue = null | boolean | number | string | readonly JsonValue[] | { readonly [key: string]: JsonValue };
/** A JSON object. */
export type JsonObject = { readonly [key: string]: JsonValue };

const UUID = /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi;
const TIMESTAMP = /\b\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|\s?[+-]\d{2}:?\d{2}\b)?/g;

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Text with UUIDs and timestamps normalised. */
export function normaliseText(text: string): string {
  return text.replace(UUID, '<uuid>').replace(TIMESTAMP, '<timestamp>');
}

/**
 * Any value as JSON with sorted keys. Values JSON has no form for (`undefined`, functions,
 * symbols) are dropped from objects and become `null` in arrays, as `JSON.stringify` does; a
 * bigint or a cycle throws a `TypeError`.
 */
export function toSortedJson(value: unknown, seen: Set<object> = new Set()): JsonValue {
  if (value === null || typeof value === 'boolean' || typeof value === 'string') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'bigint') throw new TypeError('a bigint has no JSON form');
  if (typeof value !== 'object') return null;
  if (seen.has(value)) throw new TypeError('the request refers to itself (a cycle)');
  seen.add(value);
  try {
    const json = (value as { toJSON?: unknown }).toJSON;
    if (typeof json === 'function') return toSortedJson(json.call(value), seen);
    if (Array.isArray(value)) return value.map((item) => toSortedJson(item, seen) ?? null);
    const out: Record<string, JsonValue> = {};
    for (const key of Object.keys(value).sort()) {
      const item = (value as Record<string, unknown>)[key];
      if (item === undefined || typeof item === 'function' || typeof item === 'symbol') continue;
      out[key] = toSortedJson(item, seen);
    }
    return out;
  } finally {
    seen.delete(value);
  }
}

/** How a request's strings are read: inside a tool result (the run's own values normalised) or elsewhere (as they are). */
interface Normalising {
  readonly ids: Map<string, string>;
  readonly volatile: readonly RegExp[];
}

function normaliseString(text: string, inToolResult: boolean, how: Normalising): string {
  let out = text;
  for (const pattern of how.volatile) out = out.replace(pattern, '<volatile>');
  return inToolResult ? normaliseText(out) : out;
}

/**
 * Replaces tool-call ids (`tool-call` parts' `id`, `tool-result` parts' `toolCallId`) in order of
 * first appearance, and UUIDs and timestamps inside `tool-result` parts.
 */
function normaliseValues(value: JsonValue, how: Normalising, inToolResult: boolean): JsonValue {
  if (typeof value === 'string') return normaliseString(value, inToolResult, how);
  if (Array.isArray(value)) return value.map((item: JsonValue) => normaliseValues(item, how, inToolResult));
  if (!isObject(value)) return value;
  const toolResult = inToolResult || value['type'] === 'tool-result';
  const idField = value['type'] === 'tool-call' ? 'id' : value['type'] === 'tool-result' ? 'toolCallId' : undefined;
  const out: Record<string, JsonValue> = {};
  for (const [key, item] of Object.entries(value as JsonObject)) {
    if (key === idField && typeof item === 'string') {
      if (!how.ids.has(item)) how.ids.set(item, `<call-${how.ids.size + 1}>`);
      out[key] = how.ids.get(item) as string;
    } else out[key] = normaliseValues(item, how, toolResult);
  }
  return out;
}

/** `pattern` matching everywhere (global), whatever flags it was given. */
const everywhere = (pattern: RegExp): RegExp => (pattern.global ? new RegExp(pattern.source, pattern.flags) : new RegExp(pattern.source, `${pattern.flags}g`));

/** The canonical form of a request (see the module comment); `volatile`: patterns of text read as `<volatile>`. */
export function canonicalRequest(request: unknown, volatile: readonly RegExp[] = []): JsonObject {
  const json = toSortedJson(request);
  if (!isObject(json)) throw new TypeError('a model request must be an object');
  return normaliseValues(json, { ids: new Map(), volatile: volatile.map(everywhere) }, false) as JsonObject;
}

/** The text two canonical values are compared by: JSON with sorted keys. */
export function canonicalText(value: unknown): string {
  return JSON.stringify(toSortedJson(value));
}
