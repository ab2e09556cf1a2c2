/**
 * What happened on one attempt, as the gate classifies it. `ok` means the attempt produced an
 * acceptable response; every other kind names a failure.
 */
export type ErrorKind =
  | 'ok'
  | 'rate-limit'
  | 'overloaded'
  | 'server-error'
  | 'timeout'
  | 'network'
  | 'schema-fail'
  | 'parse-fail'
  | 'refusal'
  | 'truncated'
  | 'auth'
  | 'bad-request'
  | 'bad-response'
  | 'aborted'
  | 'unknown';

/** Provider failures that may succeed when the same request is sent again. */
export const TRANSIENT_ERROR_KINDS: readonly ErrorKind[] = Object.freeze([
  'rate-limit',
  'overloaded',
  'server-error',
  'timeout',
  'network',
  'bad-response',
]);

/** Failures of the model's output (not of the call) that feedback can fix. */
export const VALIDATION_ERROR_KINDS: readonly ErrorKind[] = Object.freeze(['schema-fail', 'parse-fail']);

/** True for rate limits, overload, 5xx, timeouts, network faults and responses that broke the model spec. */
export function isTransientErrorKind(kind: ErrorKind): boolean {
  return TRANSIENT_ERROR_KINDS.includes(kind);
}

/** True for `schema-fail` and `parse-fail`. */
export function isValidationErrorKind(kind: ErrorKind): boolean {
  return VALIDATION_ERROR_KINDS.includes(kind);
}
