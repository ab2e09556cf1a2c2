/**
 * Helpers the Keel packages and integrations share: error classification, feedback building
 * blocks, usage arithmetic, validator internals. **Unstable**: names and signatures may change in
 * any release. Applications use the public entry, `@keel/reliability`.
 */
export { type ExponentialBackoffOptions } from './backoff';
export { BACKOFF_DEFAULTS, GATE_DEFAULTS, STRICT_OUTPUT_DEFAULTS } from './defaults';
export { classifyError, type ErrorClassification, kindFromNetworkCode, kindFromStatus, NETWORK_ERROR_CODES } from './classify-error';
export { isTransientErrorKind, isValidationErrorKind, TRANSIENT_ERROR_KINDS, VALIDATION_ERROR_KINDS } from './error-kind';
export { errorMessageOf, readField } from './read-field';
export { BadResponseError } from './errors/bad-response-error';
export { hasMarker, type KeelErrorOptions, reduceError } from './errors/keel-error';
export { type FailFastPhase, type ReliabilityFailFastErrorOptions } from './errors/reliability-fail-fast-error';
export { type ValidationFailureOptions, type ValidationStage } from './errors/validation-failure';
export { feedbackInput, MAX_FEEDBACK_LINES } from './feedback/format-feedback';
export { formatIssue } from './feedback/format-issue';
export { CHARS_PER_TOKEN, TRUNCATION_MARKER, truncateEcho } from './feedback/truncate-echo';
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
export type { PreCheckDecision, RuleDecision, ScopeValue } from './gate/rule';
export type { AttemptSummary, ScopeValidationError } from './gate/scope';
export { failOnUnhandledRule, transientExhaustedRule, type TransientRetryOptions } from './gate/default-rules';
export { callAndJudge, type Judged } from './gate/call-and-judge';
export { defaultFeedback } from './gate/build-feedback';
export { type AttemptDriver, type Attempted, type FallbackRequest, runAttempts } from './gate/attempt-loop';
export type { FailFastDecision } from './gate/decision';
export { failureSignature, maskMessage } from './gate/failure-signature';
export { matchesFailuresOnly } from './gate/failure-only';
export { checkRules, ruleProblem } from './gate/check-rules';
export type { GateMemory } from './gate/gate-memory';
export type { FeedbackSettings, GateSettings } from './gate/gate-settings';
export {
  extractJson,
  extractJsonCandidates,
  type ExtractJsonOptions,
  type ExtractJsonResult,
  type JsonCandidate,
  type JsonCandidates,
} from './json/extract-json';
export type { JsonDefect } from './json/repair-names';
export { parseExact } from './json/parse-exact';
export { type AppliedPatch, applyPatch } from './patch/apply-patch';
export { joinContinuation, type JoinedContinuation, type JoinReading, MIN_REPEAT_CHARS } from './patch/join-continuation';
export { type SettledReading, settleReadings } from './patch/settle-readings';
export { DEFAULT_PATCH_SETTINGS, patchRequestOf, type PatchRequest, type PatchSettings, type PatchTarget } from './patch/patch-request';
export { type PatchReading, readPatchReply } from './patch/read-patch-reply';
export { writeJson } from './patch/write-json';
export { patchInstruction } from './feedback/patch-instruction';
export { type CostBudgetOptions } from './rules/budget-rules';
export { type RetryOnKind } from './rules/strict-output-rules';
export { isPromiseLike, raceSignal, rethrowIfAborted } from './race-signal';
export { sleep } from './sleep';
export { addUsage, type ModelPrice, priceUsage, totalTokens, type UsageTotals, ZERO_USAGE } from './usage';
export { ajvValidator, issuesFromAjv } from './validation/ajv-validator';
export { escapeControl, formatPath, type IssueKind, type IssuePath, parsePointer } from './validation/issue';
export type { SchemaValidationResult } from './validation/schema-validator';
export { type ForeignIssue, issuesFromStandard } from './validation/standard-issues';
export { type Coercion, type CoercionKind, coerceToSchema } from './validation/coerce-to-schema';
export { type LocalReference, parseLocalReference, resolveLocalReference } from './local-reference';
export { withShapes } from './validation/with-shapes';
export type { ParseSchema } from './validation/to-validator';
export { checkOutput, type OutputCheck, type ValidateOutputOptions } from './validation/validate-output';
export { ACTION_LOOP_KIND, actionLoopFeedback, actionLoopOf } from './rules/action-loop-rules';
export { detectActionLoop, type ActionLoop, type ActionLoopThresholds, type ActionLoopType } from './loops/detect-action-loop';
export { canonicalHash, canonicalJson } from './loops/canonical-hash';
export type { ProposedCallView, RunStepView, RunView, ToolCallView, TurnView } from './loops/run-view';
