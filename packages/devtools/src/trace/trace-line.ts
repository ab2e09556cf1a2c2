import type { AgentEventName, AgentEvents } from '@keel/core';
import { CONTENT_FIELDS } from './content-fields';

/** One line of a trace file, parsed: the event's name and its payload, as core's `recordTrace` holds them. */
export interface TraceLine {
  readonly event: AgentEventName;
  readonly payload: AgentEvents[AgentEventName];
}

/**
 * Whether `text` holds a character a JSON string cannot hold as it is (a quote, a backslash, a
 * control character, a surrogate, which JSON.stringify escapes when it is alone): a string with
 * none is quoted without escaping.
 */
function needsEscape(text: string): boolean {
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code < 0x20 || code === 0x22 || code === 0x5c || (code >= 0xd800 && code <= 0xdfff)) return true;
  }
  return false;
}
/** Keys seen, as `"key":` and `,"key":` (a payload's keys are core's own few names; the cache stops growing past this). */
const MAX_KEYS = 1024;
const keyParts = new Map<string, readonly [first: string, next: string]>();
/** `{"event":"<name>","payload":{` by event name. */
const heads = new Map<string, string>();

function keyPart(key: string): readonly [first: string, next: string] {
  const known = keyParts.get(key);
  if (known !== undefined) return known;
  const first = `${JSON.stringify(key)}:`;
  const part = [first, `,${first}`] as const;
  if (keyParts.size < MAX_KEYS) keyParts.set(key, part);
  return part;
}

function head(event: string): string {
  const known = heads.get(event);
  if (known !== undefined) return known;
  const part = `{"event":${JSON.stringify(event)},"payload":{`;
  if (heads.size < MAX_KEYS) heads.set(event, part);
  return part;
}

/** Strings shorter than this cannot hold a secret (an exact secret is 8 characters or more, a credential shape longer). */
const MIN_SECRET = 8;
/** Strings up to this long are remembered once quoted (ids, names, kinds: a run's id is in each of its events). */
const MAX_REMEMBERED_LENGTH = 256;
const MAX_REMEMBERED = 4096;

/** Options of {@link traceLineWriter}. */
export interface TraceLineOptions {
  /** Keep content fields (else each event's {@link CONTENT_FIELDS} are left out). */
  readonly recordContent: boolean;
  /** Replaces secrets inside JSON text (see `secretRedactor`). */
  readonly redact: (json: string) => string;
}

/**
 * The function that quotes a string as JSON, as `JSON.stringify` does, with every secret in it
 * replaced: a string shorter than any secret is only quoted; a longer one is checked once and
 * remembered (ids, names, kinds recur in every line).
 */
export function jsonQuoter(redact: (json: string) => string): (text: string) => string {
  let remembered = new Map<string, string>();

  const quote = (text: string): string => {
    if (text.length < MIN_SECRET) return needsEscape(text) ? JSON.stringify(text) : `"${text}"`;
    const known = remembered.get(text);
    if (known !== undefined) return known;
    const quoted = redact(needsEscape(text) ? JSON.stringify(text) : `"${text}"`);
    if (text.length <= MAX_REMEMBERED_LENGTH) {
      if (remembered.size >= MAX_REMEMBERED) remembered = new Map();
      remembered.set(text, quoted);
    }
    return quoted;
  };

  return quote;
}

/**
 * The function that makes the JSON line (with its newline) an event is written as:
 * `{"event":…,"payload":…}`, content fields left out unless `recordContent`, every secret in a
 * string replaced. The same bytes as `JSON.stringify` of that object (then redacted), made
 * without its per-call work: each key's `"key":` is made once, and a string (a run's id, a model
 * name, a kind) is quoted and checked for secrets once, then remembered. Numbers and booleans
 * never hold secrets; only strings are scanned. Payloads hold only strings, numbers and
 * booleans, so a line never holds a raw newline: one event, one line.
 */
export function traceLineWriter({ recordContent, redact }: TraceLineOptions): (event: AgentEventName, payload: AgentEvents[AgentEventName]) => string {
  const quote = jsonQuoter(redact);

  /** A value as JSON, as `JSON.stringify` writes it; `undefined` when it leaves the key out (undefined, functions, symbols). */
  const valueJson = (value: unknown): string | undefined => {
    switch (typeof value) {
      case 'string':
        return quote(value);
      case 'number':
        return Number.isFinite(value) ? `${value}` : 'null';
      case 'boolean':
        return value ? 'true' : 'false';
      default: {
        // Payloads hold only strings, numbers and booleans; anything else is written as JSON writes it.
        const json = JSON.stringify(value) as string | undefined;
        return json === undefined ? undefined : redact(json);
      }
    }
  };

  return (event, payload) => {
    const fields = CONTENT_FIELDS[event] as readonly string[] | 'event';
    const skipped = recordContent || fields === 'event' || fields.length === 0 ? undefined : fields;
    const record = payload as unknown as Record<string, unknown>;
    let line = head(event);
    let first = true;
    for (const key of Object.keys(record)) {
      if (skipped?.includes(key)) continue;
      const json = valueJson(record[key]);
      if (json === undefined) continue;
      line += keyPart(key)[first ? 0 : 1] + json;
      first = false;
    }
    return `${line}}}\n`;
  };
}
