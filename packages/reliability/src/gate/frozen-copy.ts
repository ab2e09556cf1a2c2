/**
 * A deep-frozen copy of a JSON-like value, for code that must only read it (rules reading the
 * validated answer). A value that cannot be copied (functions, class instances a transform made)
 * is frozen in place instead: a write to it throws rather than changing what runs.
 */
export function frozenCopy<T>(value: T): T {
  let copy: T;
  try {
    copy = structuredClone(value);
  } catch {
    copy = value;
  }
  return deepFreeze(copy);
}

function deepFreeze<T>(value: T): T {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const next = stack.pop();
    if (typeof next !== 'object' || next === null || Object.isFrozen(next)) continue;
    Object.freeze(next);
    for (const key of Object.keys(next)) stack.push((next as Record<string, unknown>)[key]);
  }
  return value;
}
