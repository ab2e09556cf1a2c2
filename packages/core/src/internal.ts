/**
 * Helpers integrations share: event detail types, run-level helpers and the runtime error
 * vocabulary. The model spec and the provider kit are `@keel/provider`'s.
 * **Unstable**: names and signatures may change in any release. Applications use `@keel/core`.
 */
export type { AgentBuilder } from './agent/agent';
export type { Provenance, StepRecord } from './contracts/run-result';
export type { CallPurpose, EventBase, EventPayload, ReAskOf, ToolValidationOutcome } from './events/agent-events';
export { AGENT_EVENT_NAMES } from './events/event-names';
export type { MemoryRun } from './memory/memory-store';
export { toolPairingProblems } from './context/tool-pairing';
export type { GuardRejection } from './tools/guard';
export { type IdShapeGuardOptions, UUID_PATTERN } from './tools/id-shape-guard';
export type { AnyTool, ToolDefinition } from './tools/tool';
export type { ToolSource, ToolSourceEmit, ToolSourceEventName } from './tools/tool-source';
export type { ToolErrorCode } from './tools/tool-result';
export type { ConsoleTraceOptions } from './trace/console-trace';
export type { RunTrace, TraceEvent } from './trace/record-trace';
export type { RunUsage } from './usage/usage-ledger';

// The runtime error vocabulary, one copy for every package.
export { KeelError, type AttemptRecord } from '@keel/reliability';
export type { TokenUsage } from '@keel/reliability';
export { escapeHtml } from './shared/escape-html';
export {
  errorMessageOf,
  hasMarker,
  isTransientErrorKind,
  keelError,
  type KeelErrorClass,
  type KeelErrorInit,
  kindFromNetworkCode,
  kindFromStatus,
  NETWORK_ERROR_CODES,
  raceSignal,
  readField,
  reduceError,
  TRANSIENT_ERROR_KINDS,
} from '@keel/reliability/internal';
export type { RunRecord } from './contracts/run-result';
export { agentIdentityKey } from './agent/identity-key';
// The messages a journal's `tool-results` entry stands for: readers of a journal (the trace viewer) make them as the fold does.
export { keptTurnMessages } from './run/steps/kept-turn';
// A journal entry of an earlier format as this one has it: readers of a journal (the trace viewer) upgrade what they read as the run does.
export { upgradeJournalEntry } from './run/journal/upgrade-journal-entry';
// What every run store checks of an append, a lease and a key before it writes (one copy for every store).
export { type CheckedAppend, checkAppend, checkLease, checkStoreKey, isRunStatus } from './durable/run-append-input';
// The errors of a memory store that leases conversations (Redis, PostgreSQL): one class each, for every store.
export { ConversationBusyError } from './errors/conversation-busy-error';
// A memory store's conversation leases and its load under a lease (Redis, PostgreSQL): one loop for every store.
export { type ConversationLeases, conversationLeases, type HeldLease, type RenewLease } from './memory/conversation-leases';
export { type HeldLoadCalls, type HeldLoadSettings, type LeaseAnswer, loadHeldConversation } from './memory/load-held-conversation';
export { MemoryLeaseLostError } from './errors/memory-lease-lost-error';
// A call to a store's server that can neither hang nor outlive its run (one copy for Redis, PostgreSQL and the rest).
export { type BoundedCallErrors, boundedCall, type CallBounds } from './shared/bounded-call';
