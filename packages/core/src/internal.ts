/**
 * Helpers integrations share: the full model spec for provider authors, message and event
 * detail types, run-level helpers, and the runtime error vocabulary providers classify with.
 * **Unstable**: names and signatures may change in any release. Applications use `@keel/core`.
 */
export type { AgentBuilder } from './agent/agent';
export type { Provenance, StepRecord } from './agent/run-result';
export type { CallPurpose, EventBase, EventPayload, ReAskOf, ToolValidationOutcome } from './events/agent-events';
export { AGENT_EVENT_NAMES } from './events/event-names';
export type { MemoryRun } from './memory/memory-store';
export type { AssistantMessage, AttachmentPart, FilePart, ImagePart, SystemMessage, TextPart, ToolCallPart, ToolMessage, ToolResultPart, UserMessage } from './model/message';
export { attachmentSource, attachmentUrl, type AttachmentWire } from './provider-kit/attachments';
export { textOf, toolCallsOf } from './model/message';
export { toolPairingProblems } from './context/tool-pairing';
export { REDACTED, redactSecrets, secretsOf } from './model/redact-secrets';
export { type ErrorTypeKind, kindFromErrorType } from './model/kind-from-error-type';
export { type HeaderReader, type HeaderRecord, parseRetryAfter } from './model/parse-retry-after';
export { toolInputOf } from './model/tool-input-of';
// The provider-author kit: what every adapter needs, once.
export { CONTINUE_INSTRUCTION, withContinuation } from './provider-kit/continuation';
export type { DecoderDialect, LoweringOutcome, SchemaStats } from './provider-kit/lower-json-schema/decoder-dialect';
export { lowerJsonSchema, schemaLowerer } from './provider-kit/lower-json-schema/lower-json-schema';
export { escapePointer } from './provider-kit/lower-json-schema/schema-pointer';
export { type LocalReference, parseLocalReference } from '@keel/reliability/internal';
export { isContextOverflow, isContextWindowStop } from './provider-kit/context-overflow';
export { isAbortLike, isInstanceOf, socketFailureKind, statusFailure, vendorErrorKind } from './provider-kit/read-vendor-error';
export { firstString, type RefusalNames, schemaRejectionFor, type StrictParts, strictPartsOf } from './provider-kit/strict-parts';
export type {
  FinishReason,
  LoweredSchema,
  ModelCallErrorShape,
  ModelCapabilities,
  ModelCallOptions,
  ModelProviderV1,
  ResponseFormat,
  SchemaRejection,
  ToolChoice,
  ToolSpecification,
} from './model/model-provider-v1';
export type { GuardRejection } from './tools/guard';
export { type IdShapeGuardOptions, UUID_PATTERN } from './tools/id-shape-guard';
export type { AnyTool, ToolDefinition } from './tools/tool';
export type { ToolErrorCode } from './tools/tool-result';
export type { ConsoleTraceOptions } from './trace/console-trace';
export type { RunTrace, TraceEvent } from './trace/record-trace';
export type { RunUsage } from './usage/usage-ledger';

// The runtime error vocabulary, one copy for every package (providers classify with it).
export { KeelError, type AttemptRecord } from '@keel/reliability';
export type { TokenUsage } from '@keel/reliability';
export { escapeHtml } from './shared/escape-html';
export {
  errorMessageOf,
  hasMarker,
  isTransientErrorKind,
  kindFromNetworkCode,
  kindFromStatus,
  NETWORK_ERROR_CODES,
  raceSignal,
  readField,
  reduceError,
  TRANSIENT_ERROR_KINDS,
} from '@keel/reliability/internal';
export type { RunRecord } from './agent/run-result';
export { agentIdentityKey } from './agent/identity-key';
// The messages a journal's `tool-results` entry stands for: readers of a journal (the trace viewer) make them as the fold does.
export { keptTurnMessages } from './run/steps/kept-turn';
// What every run store checks of an append, a lease and a key before it writes (one copy for every store).
export { type CheckedAppend, checkAppend, checkLease, checkStoreKey, isRunStatus } from './durable/run-append-input';
// The errors of a memory store that leases conversations (Redis, PostgreSQL): one class each, for every store.
export { ConversationBusyError } from './errors/conversation-busy-error';
export { MemoryLeaseLostError } from './errors/memory-lease-lost-error';
// A call to a store's server that can neither hang nor outlive its run (one copy for Redis, PostgreSQL and the rest).
export { type BoundedCallErrors, boundedCall, type CallBounds } from './shared/bounded-call';
