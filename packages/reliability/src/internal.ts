/**
 * Helpers the Keel packages and integrations share: error classification, feedback building
 * blocks, usage arithmetic, validator internals. **Unstable**: names and signatures may change in
 * any release. Applications use the public entry, `@keel/reliability`.
 */
export { GATE_DEFAULTS, STRICT_OUTPUT_DEFAULTS } from './defaults';
export { classifyError, kindFromNetworkCode, kindFromStatus, NETWORK_ERROR_CODES } from './classify-error';
export { isTransientErrorKind, isValidationErrorKind, TRANSIENT_ERROR_KINDS } from './error-kind';
export { errorMessageOf, readField } from './read-field';
export { BadResponseError } from './errors/bad-response-error';
export { hasMarker, keelError, type KeelErrorClass, type KeelErrorInit, reduceError } from './errors/keel-error';
export { MAX_FEEDBACK_LINES } from './feedback/format-feedback';
export { formatIssue } from './feedback/format-issue';
export { TRUNCATION_MARKER, truncateEcho } from './feedback/truncate-echo';
export type {
  FailFastEvent,
  FeedbackErrorEvent,
  LoopDetectedEvent,
  RecoveredEvent,
  RetryEvent,
  RuleErrorEvent,
  ValidationFailedEvent,
  WaitEvent,
} from './gate/gate-event';
export type { GateFeedback } from './gate/gate-options';
export type { GateEvent } from './gate/gate-event';
export { callAndJudge, type Judged } from './gate/attempt-loop';
export { defaultFeedback } from './gate/build-feedback';
export { type Attempted, type AttemptDriver, type FallbackRequest, runAttempts } from './gate/attempt-loop';
export type { FailFastDecision } from './gate/decision';
export { failureSignature } from './gate/failure-signature';
export { matchesFailuresOnly } from './gate/failure-only';
export { ruleProblem } from './gate/check-rules';
export type { GateMemory } from './gate/gate-memory';
export type { FeedbackSettings, GateSettings } from './gate/gate-settings';
export { extractJson, extractJsonCandidates } from './json/extract-json';
export { parseExact } from './json/parse-exact';
export { joinContinuation, type JoinedContinuation } from './patch/join-continuation';
export { settleReadings } from './patch/settle-readings';
export { DEFAULT_PATCH_SETTINGS, patchRequestOf, type PatchRequest, type PatchSettings } from './patch/patch-request';
export { readPatchReply } from './patch/read-patch-reply';
export { type RetryOnKind } from './rules/strict-output-rules';
export { isPromiseLike, raceSignal } from './race-signal';
export { sleep } from './sleep';
export { priceUsage, ZERO_USAGE } from './usage';
export { ajvValidator } from './validation/ajv-validator';
export { escapeControl, formatPath, type IssuePath, parsePointer } from './validation/issue';
export { type Coercion, coerceToSchema } from './validation/coerce-to-schema';
export { type LocalReference, parseLocalReference } from './local-reference';
export { withShapes } from './validation/with-shapes';
export { checkOutput, type OutputCheck } from './validation/validate-output';
export { canonicalHash, canonicalJson } from './loops/canonical-hash';
export { loopArgumentsHash, loopResultHash } from './loops/loop-hash';
export { loopResultPending } from './loops/loop-pending';
export { ACTION_LOOP_KIND, hasActionLoopRules, loopRulesMinSteps } from './rules/action-loop-rules';
export type { RunStepView, RuleRunView, ToolCallView, TurnView } from './loops/run-view';
