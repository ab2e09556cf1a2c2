/** A schema object as the lowering reads it. */
export type Json = Record<string, unknown>;

/** A plain object (not null, not an array). */
export function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A segment written into a JSON Pointer (`~` as `~0`, `/` as `~1`). */
export function escapePointer(segment: string): string {
  return segment.includes('~') || segment.includes('/') ? segment.replaceAll('~', '~0').replaceAll('/', '~1') : segment;
}

/** A JSON Pointer segment read back. */
export function unescapePointer(segment: string): string {
  return segment.replaceAll('~1', '/').replaceAll('~0', '~');
}

/** The JSON Pointer of a path, `/` for the root. */
export function pointerText(at: readonly string[]): string {
  return at.length === 0 ? '/' : `/${at.map(escapePointer).join('/')}`;
}

/** Where a local `$ref` points: a definition of `$defs` or `definitions`, or the root (`#`). */
export type LocalReference = { readonly source: '$defs' | 'definitions'; readonly name: string } | '#';

/**
 * Reads a local `$ref` (`#`, `#/$defs/<name>`, `#/definitions/<name>`, the name as a JSON Pointer
 * segment, percent-encoding allowed), the one reading of references every schema lowering shares;
 * `undefined` for anything else (a remote reference, a pointer into a definition).
 */
export function parseLocalReference(reference: unknown): LocalReference | undefined {
  if (typeof reference !== 'string') return undefined;
  if (reference === '#') return '#';
  const match = /^#\/(\$defs|definitions)\/([^/]+)$/.exec(reference);
  if (match?.[1] === undefined || match[2] === undefined) return undefined;
  let name: string;
  try {
    name = decodeURIComponent(match[2]);
  } catch {
    return undefined;
  }
  return { source: match[1] as '$defs' | 'definitions', name: unescapePointer(name) };
}
