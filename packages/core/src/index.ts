export { Agent } from './agent/agent';
export { AgentBuilder } from './agent/agent-builder';
export type { AgentOptions, ModelTarget, OutputFallbackOptions, OutputOptions, ReliabilityOptions } from './agent/agent-options';
export { AgentStream } from './agent/agent-stream';
export type { Provenance, RunInput, RunOptions, RunResult, StepRecord } from './agent/run-result';
export type { AgentStreamPart } from './agent/stream-part';
export { AgentConfigurationError } from './errors/agent-configuration-error';
export { IncompleteStreamError } from './errors/incomplete-stream-error';
export { MaxStepsExceededError } from './errors/max-steps-exceeded-error';
export { StreamInterruptedError } from './errors/stream-interrupted-error';
export type {
  AgentEventName,
  AgentEvents,
  AgentListener,
  CallPurpose,
  EventBase,
  EventUsage,
  ToolValidationOutcome,
} from './events/agent-events';
export { InMemoryStore, type MemoryRun, type MemoryStore } from './memory/memory-store';
export type {
  AssistantMessage,
  Message,
  SystemMessage,
  TextPart,
  ToolCallPart,
  ToolMessage,
  ToolResultPart,
  UserMessage,
} from './model/message';
export { textOf, toolCallsOf } from './model/message';
export type {
  FinishReason,
  ModelCallErrorShape,
  ModelCallOptions,
  ModelProvider,
  ModelProviderV1,
  ModelRequest,
  ModelResponse,
  ModelStreamPart,
  ModelUsage,
  ResponseFormat,
  ToolChoice,
  ToolSpecification,
} from './model/model-provider-v1';
export type { GuardRejection, ToolGuard } from './tools/guard';
export { idShapeGuard, type IdShapeGuardOptions, UUID_PATTERN } from './tools/id-shape-guard';
export { type AnyTool, type Tool, type ToolContext, type ToolDefinition, tool } from './tools/tool';
export type { ToolCallRecord, ToolErrorCode } from './tools/tool-result';
export type { RunUsage } from './usage/usage-ledger';
export {
  AbortedError,
  type AttemptRecord,
  type ErrorKind,
  ReliabilityFailFastError,
  type ReliabilityRule,
  type ReliabilityScope,
  ValidationFailure,
} from '@keel/reliability';
