import { AbortedError } from '@keel/reliability';

/** The longest delay `setTimeout` keeps: a longer one fires at once (about 24.8 days). */
const LONGEST_TIMER_MS = 2_147_483_647;

/** How long a call to a store's server may take, what may cancel it, and the errors it fails with. */
export interface CallBounds {
  /** What the call does, for the error. */
  readonly operation: string;
  readonly timeoutMs: number;
  readonly signal?: AbortSignal | undefined;
}

/** The errors a bounded call fails with: the store's own (unavailable after `timeoutMs`, refused for good, ...). */
export interface BoundedCallErrors {
  readonly timedOut: (operation: string, message: string) => unknown;
  readonly failed: (error: unknown, operation: string) => unknown;
}

/**
 * Runs a call to a store's server (Redis, PostgreSQL) that can neither hang nor outlive its run:
 * it rejects with `errors.timedOut` after `timeoutMs` (at most about 24.8 days, the longest a timer
 * waits), with `errors.failed` of what the call failed with, and with {@link AbortedError} when the
 * signal aborts. (A call that timed out may still reach the server later: every write Keel makes
 * is fenced or idempotent, so it is safe to land late.)
 */
export function boundedCall<T>(call: () => Promise<T>, bounds: CallBounds, errors: BoundedCallErrors): Promise<T> {
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
    const timer = setTimeout(() => finish(() => reject(errors.timedOut(operation, `no answer within ${timeoutMs} ms`))), Math.min(timeoutMs, LONGEST_TIMER_MS));
    signal?.addEventListener('abort', onAbort, { once: true });
    let pending: Promise<T>;
    try {
      pending = call();
    } catch (error) {
      pending = Promise.reject(error);
    }
    pending.then(
      (value) => finish(() => resolve(value)),
      (error: unknown) => finish(() => reject(errors.failed(error, operation))),
    );
  });
}
