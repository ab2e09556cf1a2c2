import type { IssuePath } from './issue';

/** Reads the value at `path` inside `root`; `undefined` when any step is absent. */
export function valueAt(root: unknown, path: IssuePath): unknown {
  let current = root;
  for (const segment of path) {
    if (typeof current !== 'object' || current === null) return undefined;
    current = (current as Record<string | number, unknown>)[segment];
  }
  return current;
}

/** True when the parent at `path` is an object that lacks the last key: a missing field. */
export function isMissingAt(root: unknown, path: IssuePath): boolean {
  if (path.length === 0) return root === undefined;
  const parent = valueAt(root, path.slice(0, -1));
  const key = path[path.length - 1] as string | number;
  return typeof parent === 'object' && parent !== null && !Array.isArray(parent) && !(key in parent);
}
