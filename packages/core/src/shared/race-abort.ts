import { AbortedError } from '@keel/reliability';

/**
 * Races a promise against an abort signal, when there is one: rejects with {@link AbortedError} as
 * soon as it aborts, even if the work itself ignores the signal. Listeners are removed either way.
 */
export function raceAbort<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
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
