import { AbortedError } from './errors/aborted-error';

/** True for a promise or any thenable a callback may return. */
export function isPromiseLike<T>(value: unknown): value is PromiseLike<T> {
  return (typeof value === 'object' || typeof value === 'function') && value !== null && typeof (value as { then?: unknown }).then === 'function';
}

/**
 * Races user code (a rule's `when`, a backoff, a feedback callback, a validator, a fallback)
 * against the abort signal: rejects with {@link AbortedError} as soon as it aborts, even when the
 * code never settles. Listeners are removed either way.
 */
export function raceSignal<T>(work: T | PromiseLike<T>, signal: AbortSignal | undefined): Promise<T> {
  const promise = Promise.resolve(work);
  if (!signal) return promise;
  if (signal.aborted) {
    // The work was already started: its own rejection must not go unhandled.
    promise.catch(() => undefined);
    return Promise.reject(AbortedError.fromSignal(signal));
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(AbortedError.fromSignal(signal));
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

/** Inside a `catch` around user code: once the signal has aborted, the abort wins over whatever was thrown. */
export function rethrowIfAborted(signal: AbortSignal | undefined, error: unknown): void {
  if (signal?.aborted) throw AbortedError.isInstance(error) ? error : AbortedError.fromSignal(signal);
  if (AbortedError.isInstance(error)) throw error;
}
