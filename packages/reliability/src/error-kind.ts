/**
 * What happened on one attempt, as the gate classifies it. `ok` means the attempt produced an
 * acceptable response; every other kind names a failure. `rule-rejected`: a PostDecide rule
 * rejected an answer that passed validation (with feedback); `no-tool-call`: a tool-argument
 * re-ask was answered without a call of the tool; `guard-rejected`: a guard refused a corrected
 * tool call; `schema-refused`: the provider refused a schema the request sent (a 400), and the
 * output mode was lowered for the next attempt; `context-overflow`: the vendor refused the request
 * because it does not fit the model's context window (the same request fails again);
 * `action-loop`: the run went round a loop of actions (the same calls and results again, see
 * `actionLoopRules`) after being told, and was stopped: a failure of the run, not of one attempt.
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
  | 'rule-rejected'
  | 'no-tool-call'
  | 'guard-rejected'
  | 'refusal'
  | 'truncated'
  | 'auth'
  | 'bad-request'
  | 'context-overflow'
  | 'schema-refused'
  | 'bad-response'
  | 'aborted'
  | 'action-loop'
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
const VALIDATION_ERROR_KINDS: readonly ErrorKind[] = Object.freeze(['schema-fail', 'parse-fail', 'rule-rejected']);

/** True for rate limits, overload, 5xx, timeouts, network faults and responses that broke the model spec. */
export function isTransientErrorKind(kind: ErrorKind): boolean {
  return TRANSIENT_ERROR_KINDS.includes(kind);
}

/** True for `schema-fail`, `parse-fail` and `rule-rejected` (a rule's semantic check of a valid answer). */
export function isValidationErrorKind(kind: ErrorKind): boolean {
  return VALIDATION_ERROR_KINDS.includes(kind);
}
