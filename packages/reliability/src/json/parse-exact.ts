import type { JsonDefect } from './repair-names';
import { scanLenientJson } from './scan-lenient-json';

/** Why a text is not one JSON value as it stands (a defect named when the JSON would silently change). */
export interface ParseFailure {
  readonly ok: false;
  readonly message: string;
  readonly defect?: JsonDefect;
}

/**
 * `JSON.parse`, refusing what it would silently change: a property named twice (it keeps the last)
 * and a number it cannot hold as written. Strict JSON is scanned only when it may hold either
 * (see {@link mayChange}).
 */
export function parseExact(text: string): { ok: true; value: unknown } | ParseFailure {
  const parsed = tryParse(text);
  if (!parsed.ok || !mayChange(text, parsed.value)) return parsed;
  const scan = scanLenientJson(text);
  if (scan.ok || (scan.defect !== 'duplicate-key' && scan.defect !== 'imprecise-number')) return parsed;
  return { ok: false, message: `The JSON value cannot be used: ${scan.message} (at position ${scan.position})`, defect: scan.defect };
}

/**
 * True when the text has a run of 16 digits or a digit followed by an exponent (a number may not be
 * held as written), or more `"…":` pairs than the parsed value has properties (a name may be given
 * twice). A string's content can only make it true, which costs a scan and nothing else.
 */
function mayChange(text: string, value: unknown): boolean {
  if (/\d{16}|\d[eE]/.test(text)) return true;
  if (typeof value !== 'object' || value === null) return false;
  let properties = -1;
  let pairs = 0;
  for (let at = text.indexOf(':'); at >= 0; at = text.indexOf(':', at + 1)) {
    let before = at - 1;
    let code = text.charCodeAt(before);
    while (code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09) code = text.charCodeAt(--before);
    if (code !== 0x22) continue;
    if (properties < 0) properties = countProperties(value);
    if (++pairs > properties) return true;
  }
  return false;
}

/** How many properties a parsed value holds, at every depth (without recursion). */
function countProperties(value: object): number {
  let count = 0;
  const pending: object[] = [value];
  while (pending.length > 0) {
    const next = pending.pop() as Record<string, unknown> | unknown[];
    if (Array.isArray(next)) {
      for (const child of next) if (typeof child === 'object' && child !== null) pending.push(child);
      continue;
    }
    for (const key in next) {
      count++;
      const child = next[key];
      if (typeof child === 'object' && child !== null) pending.push(child);
    }
  }
  return count;
}

/** `JSON.parse`, its error as a message. */
export function tryParse(text: string): { ok: true; value: unknown } | { ok: false; message: string } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    return { ok: false, message: error instanceof Error ? error.message : String(error) };
  }
}
