// The public API of @keel/reliability. Helpers that integrations need are in `./internal` (unstable).

// The gate
export { runGate } from './gate/run-gate';
export type { GateAttemptContext, GateLimits, GateOptions, GateResult, GateVerdict } from './gate/gate-options';
export type { Decision } from './gate/decision';
export type { GateEvent } from './gate/gate-event';
export type { AttemptRecord } from './gate/attempt-record';
export type { ErrorKind } from './error-kind';

// Rules
export type { PreCheckRule, ReliabilityRule } from './gate/rule';
export type { AttemptPurpose, ReliabilityScope } from './gate/scope';
export { defaultRules, transientRetryRule } from './gate/default-rules';
export { strictOutputRules, type StrictOutputRulesOptions } from './rules/strict-output-rules';
export { defaultStuckLoopRule, noProgressRule, stuckLoopRule } from './rules/stuck-loop-rules';
export { lastNValidationErrorsMatch, noValidationProgress } from './stuck-loop';
export { failoverRule } from './rules/failover-rule';
export { actionLoopRules, type ActionLoopOptions } from './rules/action-loop-rules';
export { costBudget, tokenBudget } from './rules/budget-rules';
export { exponentialBackoff } from './backoff';
export type { PricingTable, TokenUsage } from './usage';

// Validation and feedback
export { toValidator, type AnySchema, type InferSchema } from './validation/to-validator';
export type { SchemaValidator } from './validation/schema-validator';
export { validateOutput } from './validation/validate-output';
export type { ValidationIssue } from './validation/issue';
export type { JsonRepair } from './json/repair-names';
export { formatFeedback, type FeedbackTemplate, type FeedbackTemplateInput } from './feedback/format-feedback';
export { quote } from './feedback/quote';

// Errors
export { KeelError } from './errors/keel-error';
export { AbortedError } from './errors/aborted-error';
export { ReliabilityFailFastError } from './errors/reliability-fail-fast-error';
export { ValidationFailure } from './errors/validation-failure';
export { InvalidSchemaError } from './errors/invalid-schema-error';
