/**
 * The canonical form of a request, as a cassette stores and matches it: plain JSON (undefined
 * fields dropped), object keys sorted, and volatile values normalised: tool-call ids become
 * `<call-1>`, `<call-2>`... in order of first appearance, and UUIDs and ISO-8601 timestamps inside
 * text become `<uuid>` and `<timestamp>`. Two requests that differ only in such values match.
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

/** Replaces tool-call ids (`tool-call` parts' `id`, `tool-result` parts' `toolCallId`) in order of first appearance. */
function normaliseIds(value: JsonValue, ids: Map<string, string>): JsonValue {
  if (typeof value === 'string') return normaliseText(value);
  if (Array.isArray(value)) return value.map((item: JsonValue) => normaliseIds(item, ids));
  if (!isObject(value)) return value;
  const idField = value['type'] === 'tool-call' ? 'id' : value['type'] === 'tool-result' ? 'toolCallId' : undefined;
  const out: Record<string, JsonValue> = {};
  for (const [key, item] of Object.entries(value as JsonObject)) {
    if (key === idField && typeof item === 'string') {
      if (!ids.has(item)) ids.set(item, `<call-${ids.size + 1}>`);
      out[key] = ids.get(item) as string;
    } else out[key] = normaliseIds(item, ids);
  }
  return out;
}

/** The canonical form of a request (see the module comment). */
export function canonicalRequest(request: unknown): JsonObject {
  const json = toSortedJson(request);
  if (!isObject(json)) throw new TypeError('a model request must be an object');
  return normaliseIds(json, new Map()) as JsonObject;
}

/** The text two canonical values are compared by: JSON with sorted keys. */
export function canonicalText(value: unknown): string {
  return JSON.stringify(toSortedJson(value));
}
