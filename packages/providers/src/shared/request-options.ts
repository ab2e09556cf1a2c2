/**
 * Per-request SDK options: never retry (the gate owns retries, so every attempt is seen and
 * counted, even with a caller's client configured to retry) and pass the abort signal.
 */
export function sdkRequestOptions(signal: AbortSignal | undefined): { maxRetries: 0; signal?: AbortSignal } {
  return signal === undefined ? { maxRetries: 0 } : { maxRetries: 0, signal };
}
