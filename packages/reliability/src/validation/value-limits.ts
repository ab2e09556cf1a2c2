import { formatPath, type IssuePath, type ValidationIssue } from './issue';

/** Values nested deeper are refused before validation: validating them could exhaust the stack. */
export const MAX_VALUE_DEPTH = 256;

/**
 * The issue of a value no JSON text holds, found without recursion before a validator runs: nested
 * deeper than {@link MAX_VALUE_DEPTH} arrays and objects, or a number that is not finite (`1e400`
 * parses to `Infinity`; JSON has no `Infinity` or `NaN`). Undefined for any other value.
 */
export function beyondJson(value: unknown): ValidationIssue | undefined {
  const pending: { value: unknown; path: IssuePath }[] = [{ value, path: [] }];
  while (pending.length > 0) {
    const { value: current, path } = pending.pop() as { value: unknown; path: IssuePath };
    if (typeof current === 'number' && !Number.isFinite(current)) {
      return { path, pathText: formatPath(path), kind: 'type', message: 'must be a finite number (JSON has no Infinity or NaN)', expected: 'finite number', received: current };
    }
    if (typeof current !== 'object' || current === null) continue;
    if (path.length >= MAX_VALUE_DEPTH) {
      return { path, pathText: formatPath(path), kind: 'other', message: `must NOT be nested deeper than ${MAX_VALUE_DEPTH} levels`, expected: `depth ${MAX_VALUE_DEPTH}` };
    }
    if (Array.isArray(current)) current.forEach((item, index) => pending.push({ value: item, path: [...path, index] }));
    else for (const [key, item] of Object.entries(current)) pending.push({ value: item, path: [...path, key] });
  }
  return undefined;
}

/**
 * Runs a validator's check, turning a stack exhausted by a value and schema that nest deeply
 * together into an issue rather than an exception.
 */
export function withinStack<R>(value: unknown, run: () => R, refuse: (issue: ValidationIssue) => R): R {
  try {
    return run();
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    return refuse({ path: [], pathText: formatPath([]), kind: 'other', message: 'is nested too deeply for this schema to validate', received: value });
  }
}
