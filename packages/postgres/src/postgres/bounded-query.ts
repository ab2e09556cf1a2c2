import { AbortedError } from '@keel/reliability';
import { PostgresUnavailableError } from '../errors/postgres-unavailable-error';
import { classifyError } from './classify-error';

/** The longest delay `setTimeout` keeps: a longer one fires at once (about 24.8 days). */
const LONGEST_TIMER_MS = 2_147_483_647;

/** How long a database call may take and what may cancel it. */
export interface QueryBounds {
  /** What the call does, for the error. */
  readonly operation: string;
  readonly timeoutMs: number;
  readonly signal?: AbortSignal | undefined;
}

/**
 * Runs a database call that can neither hang nor outlive its run: it rejects with
 * `PostgresUnavailableError` after `timeoutMs` or when the server cannot be reached, with
 * `PostgresRefusedError` when the server refuses for good, and with `AbortedError` when the
 * signal aborts. (A statement that timed out may still commit later: every write Keel makes is
 * fenced or idempotent, so it is safe to land late.)
 */
export function boundedQuery<T>(call: () => Promise<T>, bounds: QueryBounds): Promise<T> {
  const { operation, timeoutMs, signal } = bounds;
  if (signal?.aborted) return Promise.reject(AbortedError.fromSignal(signal));
  return new Promise<T>((resolve, reject) => {
    let settled = false;
    const finish = (settle: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      settle();
    };
    const onAbort = () => finish(() => reject(AbortedError.fromSignal(signal as AbortSignal)));
    const timer = setTimeout(
      () => finish(() => reject(new PostgresUnavailableError({ operation, message: `no answer within ${timeoutMs} ms` }))),
      Math.min(timeoutMs, LONGEST_TIMER_MS),
    );
    signal?.addEventListener('abort', onAbort, { once: true });
    let pending: Promise<T>;
    try {
      pending = call();
    } catch (error) {
      pending = Promise.reject(error);
    }
    pending.then(
      (value) => finish(() => resolve(value)),
      (error: unknown) => finish(() => reject(classifyError(error, operation))),
    );
  });
}
