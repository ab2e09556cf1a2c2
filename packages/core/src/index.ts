// The public API of @keel/core. Helpers that integrations (providers, stores, queues, tracers)
// need are in `./internal` (unstable); `./test` has the scripted model.

// Agents
export { Agent, type AgentBuilder } from './agent/agent';
export type { AgentOptions, ModelTarget, OutputFallbackOptions, OutputOptions, ReliabilityOptions } from './contracts/agent-options';
export type { AgentStream } from './agent/agent-stream';
export type { AgentStreamPart } from './contracts/stream-part';
export type { CompleteRunResult, RunInput, RunOptions, RunResult, SuspendedRunResult } from './contracts/run-result';
export type { RunStateSnapshot } from './contracts/run-state-snapshot';
export { RunStateError } from './errors/run-state-error';
export { StaleRunOwnerError } from './errors/stale-run-owner-error';
export { DurableRunError } from './errors/durable-run-error';
export { RunSuspendedError } from './errors/run-suspended-error';
export { AgentConfigurationError } from './errors/agent-configuration-error';
export { MemoryStoreError } from './errors/memory-store-error';
export { MaxStepsExceededError } from './errors/max-steps-exceeded-error';
export { ActionLoopError } from './errors/action-loop-error';
export { ContextOverflowError } from './errors/context-overflow-error';
export { StreamError, type StreamProblem } from './errors/stream-error';

// Chat UIs: a `useChat` route, approvals included
export { chatStream } from './chat/chat-stream';
export { uiMessagesToInput, type ChatInput } from './chat/ui-messages-to-input';
export { memorySuspendedRuns, type SuspendedRunStore } from './chat/suspended-runs';
export { memoryStreamChunks, type StreamChunkStore } from './chat/stream-chunks';
export { keepChatStream, reconnectChatStream } from './chat/resumable-stream';

// Events
export type { AgentEventName, AgentEvents, AgentListener } from './events/agent-events';
export type { RecordedRun, RunRecordListener } from './contracts/recorded-run';

// Integrations: `builder.use(extension)`
export type { Extension } from './agent/agent';
export type { CallWrapper, WrappedCall } from './shared/call-wrapper';
export { consoleTrace } from './trace/console-trace';
export { recordTrace, type Trace, type TraceRecorder } from './trace/record-trace';

// Tools and guards
export { tool, type Tool, type ToolContext } from './tools/tool';
export type { ToolCallRecord } from './tools/tool-result';
export type { ToolGuard } from './tools/guard';
export { idShapeGuard } from './tools/id-shape-guard';

// Memory
export { InMemoryStore, type MemoryStore } from './memory/memory-store';
export { memoryRunStore } from './durable/memory-run-store';
export type { RunLease, RunStore, StoredRun } from './contracts/run-store';
export type { JournalEntry } from './run/journal/journal-entry';
export type { JournalListener } from './run/journal/journal-writer';
export type { RunStep } from './run/journal/run-step';

// Models
export type { Message } from '@keel/provider';
export type { ModelProvider, ModelRequest, ModelResponse, ModelStreamPart } from '@keel/provider';

// The reliability vocabulary an agent's user meets (the rest is in @keel/reliability)
export {
  AbortedError,
  type ErrorKind,
  ReliabilityFailFastError,
  type ReliabilityRule,
  type ReliabilityScope,
  ValidationFailure,
} from '@keel/reliability';
