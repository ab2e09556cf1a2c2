import type { IssuePath } from '../validation/issue';
import { lookup, type PatchRequest } from './patch-request';

/** The outcome of {@link applyPatch}. */
type AppliedPatch = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly message: string };

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A copy of `container` with `key` set to `value` (an own, enumerable property even for `__proto__`). */
function withKey(container: unknown, key: string | number, value: unknown): unknown {
  if (Array.isArray(container)) {
    const copy = container.slice();
    copy[key as number] = value;
    return copy;
  }
  const copy: Record<string, unknown> = {};
  for (const name of Object.keys(container as Record<string, unknown>)) Object.defineProperty(copy, name, { value: (container as Record<string, unknown>)[name], enumerable: true, writable: true, configurable: true });
  Object.defineProperty(copy, key as string, { value, enumerable: true, writable: true, configurable: true });
  return copy;
}

/** `base` with `path` set to `value`, copying only the containers on the path. */
function setAt(base: unknown, path: IssuePath, value: unknown): unknown {
  if (path.length === 0) return value;
  const [head, ...rest] = path as [string | number, ...(string | number)[]];
  const child = (base as Record<string | number, unknown>)[head];
  return withKey(base, head, setAt(child, rest, value));
}

/**
 * Applies a patch to the request's base value: `entries` maps printed paths to their corrected
 * values. Every key must be one of the request's targets, and each target must still be where
 * the request found it (an array index in range, a property of an object; a missing property's
 * object must exist). Refuses anything else, naming the first key at fault; never changes `base`
 * and never touches a path that was not named.
 */
export function applyPatch(request: PatchRequest, entries: Readonly<Record<string, unknown>>): AppliedPatch {
  const byText = new Map(request.targets.map((target) => [target.pathText, target.path]));
  let value = request.base;
  for (const key of Object.keys(entries)) {
    const path = byText.get(key);
    if (path === undefined) return { ok: false, message: `the patch sets ${JSON.stringify(key)}, which the feedback did not name` };
    const parent = lookup(value, path.slice(0, -1));
    const last = path[path.length - 1];
    const fits = parent.found && (Array.isArray(parent.value) ? typeof last === 'number' && last >= 0 && last < parent.value.length : isRecord(parent.value) && typeof last === 'string');
    if (!fits) return { ok: false, message: `the path ${JSON.stringify(key)} does not exist in the rejected value` };
    value = setAt(value, path, entries[key]);
  }
  return { ok: true, value };
}
