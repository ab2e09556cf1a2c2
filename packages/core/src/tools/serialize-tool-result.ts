import { formatPath, TRUNCATION_MARKER } from '@keel/reliability/internal';
import { AGENT_DEFAULTS } from '../defaults';

/** A tool's return value as the model will read it, or why it cannot be sent. */
export type SerializedToolResult =
  | { readonly ok: true; readonly text: string; readonly truncated: boolean }
  | { readonly ok: false; readonly message: string };

/** Found while walking a value: what is not JSON data, and where. */
class NotData extends Error {
  constructor(
    readonly what: string,
    readonly path: readonly (string | number)[],
  ) {
    super(what);
  }
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

function describe(value: unknown): string | undefined {
  switch (typeof value) {
    case 'function':
      return 'a function';
    case 'symbol':
      return 'a symbol';
    case 'bigint':
      return 'a BigInt';
    default:
      if (value instanceof Map) return 'a Map';
      if (value instanceof Set) return 'a Set';
      if (value instanceof WeakMap || value instanceof WeakSet) return 'a weak collection';
      if (value instanceof Promise) return 'a promise (was it awaited?)';
      return undefined;
  }
}

/**
 * Turns a value into JSON-ready data, checking every node: functions, symbols, BigInts, Maps,
 * Sets, promises and cycles are refused (by a {@link NotData} naming the path); `toJSON` is
 * honoured; `undefined` properties are dropped as JSON does.
 */
function toData(value: unknown, path: (string | number)[], ancestors: Set<object>): unknown {
  const bad = describe(value);
  if (bad) throw new NotData(bad, path.slice());
  if (typeof value !== 'object' || value === null) return value;
  if (ancestors.has(value)) throw new NotData('a circular reference', path.slice());
  const toJSON = (value as { toJSON?: unknown }).toJSON;
  if (typeof toJSON === 'function') {
    ancestors.add(value);
    const replaced = toData(toJSON.call(value, path.length === 0 ? '' : String(path[path.length - 1])), path, ancestors);
    ancestors.delete(value);
    return replaced;
  }
  ancestors.add(value);
  let data: unknown;
  if (Array.isArray(value)) {
    const list: unknown[] = [];
    for (let index = 0; index < value.length; index++) {
      path.push(index);
      const item: unknown = toData(value[index], path, ancestors);
      // As in JSON: an undefined item becomes null.
      list.push(item === undefined ? null : item);
      path.pop();
    }
    data = list;
  } else {
    const object: Record<string, unknown> = {};
    for (const key of Object.keys(value)) {
      path.push(key);
      const item = toData((value as Record<string, unknown>)[key], path, ancestors);
      if (item !== undefined) object[key] = item;
      path.pop();
    }
    data = object;
  }
  ancestors.delete(value);
  return data;
}

/** Cuts `text` to at most `maxBytes` bytes of UTF-8 (on a character boundary), ending with the truncation marker. */
function cutToBytes(text: string, maxBytes: number): string {
  const marker = `\n${TRUNCATION_MARKER}`;
  const room = Math.max(0, maxBytes - encoder.encode(marker).length);
  const bytes = encoder.encode(text);
  let end = room;
  // Back off continuation bytes (10xxxxxx) so no character is cut in half.
  while (end > 0 && ((bytes[end] as number) & 0xc0) === 0x80) end--;
  return `${decoder.decode(bytes.subarray(0, end))}${marker}`;
}

function byteLengthAtMost(text: string, maxBytes: number): boolean {
  if (text.length * 3 <= maxBytes) return true;
  if (text.length > maxBytes) return false;
  return encoder.encode(text).length <= maxBytes;
}

/**
 * Serialises a tool's return value for the model: strings as they are, `undefined` as an empty
 * result, anything else as JSON after checking it is data. A value that is not (a function,
 * symbol, BigInt, Map, Set, promise or cycle, anywhere in it, or a getter or `toJSON` that
 * throws) gives `ok: false` with a message saying what and where — never the value itself. A text
 * longer than `maxBytes` is cut, with a marker saying so.
 */
export function serializeToolResult(value: unknown, maxBytes = AGENT_DEFAULTS.maxToolResultBytes): SerializedToolResult {
  let text: string;
  if (typeof value === 'string') text = value;
  else if (value === undefined) text = '';
  else {
    try {
      // A top-level `toJSON` returning `undefined` serialises to nothing: an empty result, as `undefined` is.
      text = JSON.stringify(toData(value, [], new Set())) ?? '';
    } catch (error) {
      if (error instanceof NotData) {
        const where = error.path.length === 0 ? 'the top level' : formatPath(error.path);
        return { ok: false, message: `the tool returned ${error.what} at ${where}, which is not JSON data; tools must return strings or JSON-serialisable values` };
      }
      if (error instanceof RangeError) return { ok: false, message: 'the tool returned a value nested too deeply to serialise' };
      return { ok: false, message: 'the tool returned a value that could not be read (a getter or toJSON threw)' };
    }
  }
  if (byteLengthAtMost(text, maxBytes)) return { ok: true, text, truncated: false };
  return { ok: true, text: cutToBytes(text, maxBytes), truncated: true };
}
