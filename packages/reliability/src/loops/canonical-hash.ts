/**
 * A value as canonical JSON: object keys sorted, so `{ a: 1, b: 2 }` and `{ b: 2, a: 1 }` read the
 * same. Values JSON cannot carry (functions, symbols, `undefined` in objects) are left out as
 * `JSON.stringify` leaves them; a cycle reads as `"[cycle]"` rather than throwing.
 */
export function canonicalJson(value: unknown): string {
  const seen = new Set<object>();
  const walk = (item: unknown): unknown => {
    if (item === null || typeof item !== 'object') return item;
    if (seen.has(item)) return '[cycle]';
    seen.add(item);
    let out: unknown;
    if (Array.isArray(item)) out = item.map((entry) => (entry === undefined ? null : walk(entry)));
    else {
      const sorted: Record<string, unknown> = {};
      for (const key of Object.keys(item).sort()) {
        const entry = (item as Record<string, unknown>)[key];
        if (entry !== undefined && typeof entry !== 'function' && typeof entry !== 'symbol') sorted[key] = walk(entry);
      }
      out = sorted;
    }
    seen.delete(item);
    return out;
  };
  try {
    return JSON.stringify(walk(value)) ?? 'undefined';
  } catch {
    // A getter that throws, a BigInt: the value reads as its type, so equal hostile values still compare.
    return `[unserializable ${typeof value}]`;
  }
}

/**
 * A short, stable hash of a value's {@link canonicalJson} (two 32-bit FNV-1a variants, 16 hex
 * digits). Equal values hash equal; it is for telling repeats apart, not for security.
 */
export function canonicalHash(value: unknown): string {
  const text = typeof value === 'string' ? `s:${value}` : canonicalJson(value);
  let first = 0x811c9dc5;
  let second = 0x01000193 ^ text.length;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    first = Math.imul(first ^ code, 0x01000193);
    second = Math.imul(second ^ code, 0x5bd1e995) ^ (second >>> 15);
  }
  return (first >>> 0).toString(16).padStart(8, '0') + (second >>> 0).toString(16).padStart(8, '0');
}
