export { exponentialBackoff, type ExponentialBackoffOptions } from './backoff';
export { classifyError, kindFromStatus, type ErrorClassification } from './classify-error';
export {
  type ErrorKind,
  isTransientErrorKind,
  isValidationErrorKind,
  TRANSIENT_ERROR_KINDS,
  VALIDATION_ERROR_KINDS,
} from './error-kind';
export { AbortedError } from './errors/aborted-error';
export { BadResponseError } from './errors/bad-response-error';
export { InvalidSchemaError } from './errors/invalid-schema-error';
export { hasMarker, KeelError, type KeelErrorOptions, reduceError } from './errors/keel-error';
export {
  type FailFastPhase,
  ReliabilityFailFastError,
  type ReliabilityFailFastErrorOptions,
} from './errors/reliability-fail-fast-error';
export { ValidationFailure, type ValidationFailureOptions, type ValidationStage } from './errors/validation-failure';
export {
  feedbackInput,
  type FeedbackTemplate,
  type FeedbackTemplateInput,
  formatFeedback,
  MAX_FEEDBACK_LINES,
} from './feedback/format-feedback';
export { formatIssue } from './feedback/format-issue';
export { quote } from './feedback/quote';
export { CHARS_PER_TOKEN, TRUNCATION_MARKER, truncateEcho } from './feedback/truncate-echo';
export type { AttemptRecord } from './gate/attempt-record';
export type {
  FailFastEvent,
  FeedbackErrorEvent,
  GateEvent,
  RecoveredEvent,
  RetryEvent,
  RuleErrorEvent,
  ValidationFailedEvent,
  WaitEvent,
} from './gate/gate-event';
export type { GateAttemptContext, GateFeedback, GateOptions, GateResult, GateVerdict } from './gate/gate-options';
export type { PreCheckDecision, PreCheckRule, ReliabilityRule, RuleDecision, ScopeValue } from './gate/rule';
export { runGate } from './gate/run-gate';
export type { AttemptSummary, ReliabilityScope, ScopeValidationError } from './gate/scope';
export {
  extractJson,
  extractJsonCandidates,
  type ExtractJsonOptions,
  type ExtractJsonResult,
  type JsonCandidate,
  type JsonCandidates,
} from './json/extract-json';
export type { JsonDefect, JsonRepair } from './json/json-repair';
export { costBudget, type CostBudgetOptions, tokenBudget } from './rules/budget-rules';
export { failoverRule } from './rules/failover-rule';
export { type RetryOnKind, strictOutputRules, type StrictOutputRulesOptions } from './rules/strict-output-rules';
export { defaultStuckLoopRule, noProgressRule, stuckLoopRule } from './rules/stuck-loop-rules';
export { defaultRules, failOnUnhandledRule, transientRetryRule, type TransientRetryOptions } from './gate/default-rules';
export { sleep } from './sleep';
export { lastNValidationErrorsMatch, noValidationProgress } from './stuck-loop';
export { addUsage, type ModelPrice, priceUsage, type PricingTable, totalTokens, type UsageTotals, ZERO_USAGE } from './usage';
export { ajvValidator, issuesFromAjv, parsePointer } from './validation/ajv-validator';
export { escapeControl, formatPath, type IssueKind, type IssuePath, issueSignature, type ValidationIssue } from './validation/issue';
export type { SchemaValidationResult, SchemaValidator } from './validation/schema-validator';
export { type ForeignIssue, issuesFromStandard } from './validation/standard-issues';
export { type Coercion, type CoercionKind, coerceToSchema } from './validation/coerce-to-schema';
export { withShapes } from './validation/with-shapes';
export { type AnySchema, type InferSchema, type ParseSchema, toValidator } from './validation/to-validator';
export { checkOutput, type OutputCheck, validateOutput, type ValidateOutputOptions } from './validation/validate-output';
