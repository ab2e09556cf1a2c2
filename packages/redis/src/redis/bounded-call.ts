import { AbortedError } from '@keel/reliability';
import { RedisUnavailableError } from '../errors/redis-unavailable-error';
import { permanentReplyError } from './reply-error';

/** The longest delay `setTimeout` keeps: a longer one fires at once (about 24.8 days). */
const LONGEST_TIMER_MS = 2_147_483_647;

/** How long a Redis call may take and what may cancel it. */
export interface CallBounds {
  /** What the call does, for the error. */
  readonly operation: string;
  readonly timeoutMs: number;
  readonly signal?: AbortSignal | undefined;
}

/**
 * Runs a Redis call that can neither hang nor outlive its run: it rejects with
 * {@link RedisUnavailableError} after `timeoutMs` (at most about 24.8 days, the longest a timer waits) or when Redis fails it, with `RedisKeyError`
 * (permanent) when Redis refuses it because of what a key holds, and with {@link AbortedError}
 * when the signal aborts. (A timed-out command may still reach the server
 * later: every write Keel makes is safe to land late.)
 */
export function boundedCall<T>(call: () => Promise<T>, bounds: CallBounds): Promise<T> {
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
      () => finish(() => reject(new RedisUnavailableError({ operation, message: `no answer within ${timeoutMs} ms` }))),
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
      (error: unknown) =>
        finish(() =>
          reject(permanentReplyError(error, operation) ?? new RedisUnavailableError({ operation, message: error instanceof Error ? error.message : String(error), cause: error })),
        ),
    );
  });
}
