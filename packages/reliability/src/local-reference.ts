/** Where a local `$ref` points: a definition of `$defs` or `definitions`, or the root (`#`). */
export type LocalReference = { readonly source: '$defs' | 'definitions'; readonly name: string } | '#';

/**
 * Reads a local `$ref` (`#`, `#/$defs/<name>`, `#/definitions/<name>`, the name as a JSON Pointer
 * segment, percent-encoding allowed): the one reading of references that schema lowering and
 * coercion share. `undefined` for anything else (a remote reference, a pointer into a definition).
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
  return { source: match[1] as '$defs' | 'definitions', name: name.replaceAll('~1', '/').replaceAll('~0', '~') };
}

/** The schema a local `$ref` names in `root` (its own definition, or `root` itself for `#`); `undefined` when there is none. */
export function resolveLocalReference(root: unknown, reference: unknown): unknown {
  const target = parseLocalReference(reference);
  if (target === undefined || typeof root !== 'object' || root === null) return undefined;
  if (target === '#') return root;
  const definitions: unknown = (root as Record<string, unknown>)[target.source];
  if (typeof definitions !== 'object' || definitions === null || !Object.hasOwn(definitions, target.name)) return undefined;
  return (definitions as Record<string, unknown>)[target.name];
}
