import type { JsonDefect } from './json-repair';
import { scanLenientJson } from './scan-lenient-json';

/**
 * `JSON.parse`, refusing what it would silently change: a property named twice (it keeps the last)
 * and a number it cannot hold as written. Strict JSON is scanned only when it may hold either (a
 * long digit run or an exponent; more `"name":` pairs in the text than properties parsed).
 */
export function parseExact(text: string): { ok: true; value: unknown } | { ok: false; message: string; defect?: JsonDefect } {
  const parsed = tryParse(text);
  if (!parsed.ok || !(/\d{16}|\d[eE]/.test(text) || countNamePairs(text) > countProperties(parsed.value))) return parsed;
  const scan = scanLenientJson(text);
  if (scan.ok || (scan.defect !== 'duplicate-key' && scan.defect !== 'imprecise-number')) return parsed;
  return { ok: false, message: `The JSON value cannot be used: ${scan.message} (at position ${scan.position})`, defect: scan.defect };
}

/** How many `"…":` pairs a text holds: at least its number of properties (a property named twice counts twice). */
function countNamePairs(text: string): number {
  let count = 0;
  for (let at = text.indexOf(':'); at >= 0; at = text.indexOf(':', at + 1)) {
    let before = at - 1;
    while (before >= 0 && /\s/.test(text[before] as string)) before--;
    if (text[before] === '"') count++;
  }
  return count;
}

/** How many properties a parsed value holds, at every depth (without recursion). */
function countProperties(value: unknown): number {
  let count = 0;
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const next = pending.pop();
    if (typeof next !== 'object' || next === null) continue;
    const children = Array.isArray(next) ? next : Object.values(next);
    if (!Array.isArray(next)) count += children.length;
    for (const child of children) if (typeof child === 'object' && child !== null) pending.push(child);
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
