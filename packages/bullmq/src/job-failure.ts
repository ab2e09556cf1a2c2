import { AbortedError, KeelError, ReliabilityFailFastError } from '@keel/reliability';
import { isTransientErrorKind, reduceError } from '@keel/reliability/internal';
import { UnrecoverableError } from 'bullmq';

/**
 * The error a job fails with, from the error its run ended with: its message starts with the
 * failure's kind. BullMQ retries it (within the job's attempts) only when the failure is
 * transient: a fail-fast whose last failure was a rate limit, an overload, a 5xx, a timeout or a
 * network fault, or another Keel error that says it is retryable. Everything else, a cancelled
 * job included, is an `UnrecoverableError`.
 */
export function jobFailure(error: unknown, cancelled: boolean): Error {
  const { message } = reduceError(error);
  if (cancelled) return new UnrecoverableError(`cancelled: ${message}`);
  if (ReliabilityFailFastError.isInstance(error)) {
    const text = `${error.errorKind} (${error.kind}): ${message}`;
    return isTransientErrorKind(error.errorKind) ? new Error(text) : new UnrecoverableError(text);
  }
  if (AbortedError.isInstance(error)) return new UnrecoverableError(`aborted: ${message}`);
  if (KeelError.isKeelError(error)) {
    const text = `${error.name}: ${message}`;
    return error.retryable ? new Error(text) : new UnrecoverableError(text);
  }
  return error instanceof Error ? error : new Error(message);
}
