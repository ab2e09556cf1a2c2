import type { CompleteRunResult, RunResult, SuspendedRunResult } from '../contracts/run-result';
import { RunSuspendedError } from '../errors/run-suspended-error';

/**
 * The result of a run that must have completed, narrowed to `complete` (its typed `value`, its
 * repairs and provenance). For tests: a suspended run throws its `RunSuspendedError` (naming the
 * calls that wait).
 * @throws {RunSuspendedError} when the run suspended for approvals.
 * @throws {TypeError} when the value is not a run result.
 */
export function asComplete<T>(result: RunResult<T>): CompleteRunResult<T> {
  const status: unknown = (result as { status?: unknown } | null | undefined)?.status;
  if (status === 'complete') return result as CompleteRunResult<T>;
  if (status === 'suspended') throw new RunSuspendedError({ result: result as SuspendedRunResult });
  throw new TypeError(`asComplete() takes a run result, got ${describe(result)}`);
}

/**
 * The result of a run that must have suspended, narrowed to `suspended` (its `state` and
 * `pendingApprovals`). For tests.
 * @throws {TypeError} when the run completed, or the value is not a run result.
 */
export function asSuspended(result: RunResult<unknown>): SuspendedRunResult {
  const status: unknown = (result as { status?: unknown } | null | undefined)?.status;
  if (status === 'suspended') return result as SuspendedRunResult;
  if (status === 'complete') throw new TypeError(`The run completed (text: ${JSON.stringify((result as { text: string }).text.slice(0, 200))}) where it should have suspended for approvals`);
  throw new TypeError(`asSuspended() takes a run result, got ${describe(result)}`);
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value !== 'object') return typeof value;
  return `an object with status ${JSON.stringify((value as { status?: unknown }).status) ?? 'undefined'}`;
}
