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

/** The JSON Pointer of a path, `/` for the root. */
export function pointerText(at: readonly string[]): string {
  return at.length === 0 ? '/' : `/${at.map(escapePointer).join('/')}`;
}
