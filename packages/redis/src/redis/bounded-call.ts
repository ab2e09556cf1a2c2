import { type BoundedCallErrors, type CallBounds, boundedCall as bounded } from '@keel/core/internal';
import { RedisError } from '../errors/redis-error';
import { permanentReplyError } from './reply-error';

export type { CallBounds };

const REDIS_ERRORS: BoundedCallErrors = {
  timedOut: (operation, message) => new RedisError({ problem: 'unavailable', operation, message }),
  failed: (error, operation) => permanentReplyError(error, operation) ?? new RedisError({ problem: 'unavailable', operation, message: error instanceof Error ? error.message : String(error), cause: error }),
};

/**
 * A Redis call that can neither hang nor outlive its run (core's `boundedCall`): it rejects with
 * a {@link RedisError} `unavailable` after `timeoutMs` or when Redis fails it, `key`
 * (permanent) when Redis refuses it because of what a key holds, and with `AbortedError` when the
 * signal aborts.
 */
export function boundedCall<T>(call: () => Promise<T>, bounds: CallBounds): Promise<T> {
  return bounded(call, bounds, REDIS_ERRORS);
}
