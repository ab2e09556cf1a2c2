import type { CompactionTier } from '../context/plan-compaction';
import type { AttemptRecord, ErrorKind, TokenUsage } from '@keel/reliability';
import type { FailFastEvent, FeedbackErrorEvent, LoopDetectedEvent, RecoveredEvent, RetryEvent, RuleErrorEvent, ValidationFailedEvent, WaitEvent } from '@keel/reliability/internal';
import type { FinishReason } from '@keel/provider';

/** Fields every event payload carries. */
export interface EventBase {
  /** Ties together every event of one run. */
  readonly runId: string;
  /** The step (1-based) the event belongs to; 0 before the first step. */
  readonly step: number;
  /** Milliseconds since the epoch. */
  readonly timestamp: number;
  /** Set on the events of an agent run as a tool (`agent.asTool()`): the run that called it. */
  readonly parentRunId?: string;
}

/** Set on the events of a re-ask (`purpose: 'tool-re-ask'`), so parallel re-asks can be told apart. */
export interface ReAskOf {
  /** The tool call whose arguments the re-ask asks for again. */
  readonly toolCallId?: string;
}

type FromGate<T extends { type: string }> = EventBase & Omit<T, 'type'> & ReAskOf;

/**
 * How a run ended, as `run.end` and a run's record say it: `complete` (it has its answer, as
 * `RunResult.status`), `suspended` (it waits, as `RunResult.status`), `failed` (it threw), `aborted`.
 */
export type RunEndStatus = 'complete' | 'suspended' | 'failed' | 'aborted';

/** Why a model call was made. */
export type CallPurpose = AttemptRecord['purpose'];

/** Outcome of validating one tool call's arguments: `valid` as first written, `corrected` after re-asks, or how its re-asks ended. */
export type ToolValidationOutcome = 'valid' | 'corrected' | 'redundant' | 'exhausted' | 'gave-up' | 'guard-rejected-on-retry';

/**
 * Every event an agent emits, by name. Payloads are frozen and hold only strings, numbers and
 * booleans (never live Error objects).
 */
export interface AgentEvents {
  'run.start': EventBase & { readonly provider: string; readonly model: string; readonly conversationId?: string };
  'run.end': EventBase &
    TokenUsage & {
      /** `suspended`: the run waits for approvals (`run.suspended` came just before); it goes on with `agent.resume()`. */
      readonly status: RunEndStatus;
      readonly durationMs: number;
      readonly steps: number;
      readonly modelCalls: number;
      /** Loops of actions the action-loop rules found (each nudge and stop), when there were any. */
      readonly loopsDetected?: number;
      readonly errorName?: string;
      readonly errorMessage?: string;
    };
  /**
   * The run stopped at tool calls that need approval, none of them run: `run.end` (status
   * `suspended`) follows. `agent.resume()` continues the run under the same `runId`.
   */
  'run.suspended': EventBase & {
    /** New for every suspension: `run.resumed` names it. */
    readonly suspensionId: string;
    /** Ids of the calls waiting, comma-separated. */
    readonly toolCallIds: string;
    /** Their tools' names, comma-separated, in the same order. */
    readonly toolNames: string;
    readonly pending: number;
    /** Calls whose outcome a crash left unknown (a recovered durable run), when there are any; `toolCallIds` lists them after the pending ones. */
    readonly unknownOutcomes?: number;
  };
  /** A suspended run goes on (after its `run.start`): the decided calls run or are refused, then the loop goes on. */
  'run.resumed': EventBase & {
    readonly suspensionId: string;
    readonly approved: number;
    readonly rejected: number;
  };
  'step.start': EventBase;
  'step.end': EventBase & { readonly finishReason: FinishReason; readonly toolCalls: number; readonly final: boolean };
  'model.request': EventBase &
    ReAskOf & {
    readonly attempt: number;
    readonly purpose: CallPurpose;
    readonly provider: string;
    readonly model: string;
    readonly messageCount: number;
    readonly ephemeralCount: number;
    readonly toolCount: number;
    /** `auto`, `required`, `none` or `tool:<name>`. */
    readonly toolChoice: string;
    /** How the final answer is asked for (`native`, `tool`, `prompt`), on step calls of an agent with an output schema. */
    readonly outputMode?: 'native' | 'tool' | 'prompt';
    /** Tools sent with `strict: true` (constrained to their lowered input schema). */
    readonly strictToolCount?: number;
  };
  'model.response': EventBase &
    TokenUsage &
    ReAskOf & {
      readonly attempt: number;
      readonly purpose: CallPurpose;
      readonly provider: string;
      readonly model: string;
      readonly finishReason: FinishReason;
      readonly latencyMs: number;
      readonly toolCalls: number;
    };
  'model.error': EventBase &
    ReAskOf & {
    readonly attempt: number;
    readonly purpose: CallPurpose;
    readonly provider: string;
    readonly model: string;
    readonly errorKind: ErrorKind;
    readonly errorName: string;
    readonly message: string;
    readonly latencyMs: number;
    readonly retryAfterMs?: number;
  };
  /**
   * What a model call sent and received, as JSON text: for tracers that record content (opt-in).
   * Emitted only when something listens to it, after the response and before `model.response`.
   */
  'model.content': EventBase &
    ReAskOf & {
    readonly attempt: number;
    readonly purpose: CallPurpose;
    readonly provider: string;
    readonly model: string;
    /** The system prompt, when there is one. */
    readonly system?: string;
    /** The request's messages (ephemeral feedback included), as JSON. */
    readonly input: string;
    /** The response's content parts (text and tool calls), as JSON. */
    readonly output: string;
  };
  /** A provider reported a token count that is not a finite, non-negative number: it was recorded as 0. */
  'usage.invalid': EventBase &
    ReAskOf & {
    readonly attempt: number;
    readonly purpose: CallPurpose;
    readonly provider: string;
    readonly model: string;
    /** `inputTokens`, `outputTokens`, `cacheReadTokens`, `cacheWriteTokens`, or `usage` when the whole record was missing. */
    readonly field: string;
    /** What was received: the number, or the type when not a number. */
    readonly received: string;
  };
  'tool.start': EventBase & { readonly toolCallId: string; readonly toolName: string };
  'tool.end': EventBase & {
    readonly toolCallId: string;
    readonly toolName: string;
    readonly isError: boolean;
    /** `unknown-tool`, `validation-failed`, a guard's code, `tool-error`, when `isError`. */
    readonly errorCode?: string;
    readonly durationMs: number;
  };
  'tool.validation': EventBase & {
    readonly toolCallId: string;
    readonly toolName: string;
    readonly outcome: ToolValidationOutcome;
    readonly retryCount: number;
  };
  /** A re-ask for a tool call's arguments is sent (its transient retries are not re-asks). */
  'tool.re-ask': EventBase & {
    readonly toolCallId: string;
    readonly toolName: string;
    /** The rule that re-asks for corrected arguments (`tool-re-ask`). */
    readonly rule: string;
    /** 1-based number of this re-ask. */
    readonly reAsk: number;
    /** The feedback sent with the re-ask. */
    readonly feedback: string;
  };
  'validation.failed': FromGate<ValidationFailedEvent>;
  'reliability.retry': FromGate<RetryEvent>;
  'reliability.wait': FromGate<WaitEvent>;
  'reliability.recovered': FromGate<RecoveredEvent>;
  'reliability.fail-fast': FromGate<FailFastEvent>;
  'reliability.rule-error': FromGate<RuleErrorEvent>;
  'reliability.feedback-error': FromGate<FeedbackErrorEvent>;
  /** The run went round a loop of actions (the action-loop rules): the model is told once (`nudge`), then the run stops (`stop`). */
  'reliability.loop-detected': FromGate<LoopDetectedEvent>;
  /** The final answer was accepted after lossless local repairs or schema-guided coercions (zero model calls). */
  'output.repaired': EventBase & {
    /** Repair names, comma-separated (`unquoted-keys, trailing-comma`). */
    readonly repairs: string;
    /** Number of coercions. */
    readonly coercions: number;
    /** Paths of the coerced values, comma-separated. */
    readonly coercedPaths: string;
  };
  /**
   * The output mode of a target went down (`native` → `tool` → `prompt`), or its strict tools were
   * turned off: a 400 refused a schema (`schema-rejected`: the same run retries at once, and later
   * runs of the agent start there), the schema cannot be lowered for the provider's decoder
   * (`not-lowerable`), or the target does not declare native output (`unsupported`).
   */
  'output.mode-downgraded': EventBase & {
    readonly provider: string;
    readonly model: string;
    readonly from: 'native' | 'tool' | 'prompt';
    readonly to: 'native' | 'tool' | 'prompt';
    /** Whether tools are still sent strict after the change. */
    readonly strictTools: boolean;
    readonly reason: 'schema-rejected' | 'not-lowerable' | 'unsupported';
    /** The provider's message, or why the schema cannot be used. */
    readonly detail: string;
  };
  /**
   * What a schema sent to a constrained decoder lost in lowering (once per run and target): the
   * decoder does not enforce these, Keel still validates them (a reply breaking one is re-asked).
   */
  'output.schema-lowered': EventBase & {
    readonly provider: string;
    readonly model: string;
    /** `output` (the native format or the answer tool) or `tool` (a strict tool's input). */
    readonly subject: 'output' | 'tool';
    /** The tool, for `subject: 'tool'`. */
    readonly toolName?: string;
    /** The changes, separated by `; ` (e.g. `removed maxLength at /properties/name`). */
    readonly changes: string;
  };
  /**
   * The run compacted what it sends before a step (the kept messages are unchanged): the estimated
   * request passed `compactAt` of the window (`threshold`), or the vendor refused it as too long
   * (`overflow`; the step is retried once). Between two of these, each request extends the one
   * before, so the prompt cache holds.
   */
  'context.compacted': EventBase & {
    readonly reason: 'threshold' | 'overflow';
    /** The costliest tier used: `drop-repeats`, `clear-results`, or `summary` (a model call, counted in usage). */
    readonly tier: CompactionTier;
    /** Every tier used, comma-separated, cheapest first. */
    readonly tiers: string;
    /** Estimated tokens of the request before and after (on the high side). */
    readonly tokensBefore: number;
    readonly tokensAfter: number;
    /** The window the run plans for: the declared one, or after a refusal the refused request's estimate when smaller. */
    readonly contextWindow: number;
    /** Tool results sent as a marker so far. */
    readonly clearedResults: number;
    /** Compactions of the run so far, this one included. */
    readonly compactions: number;
  };
  /** Deferred tools were loaded (found by `tool_search`, or called by name): they are sent from the next step on. */
  'tools.loaded': EventBase & {
    /** The tools this step loaded, in the order found. */
    readonly toolNames: readonly string[];
    /** Deferred tools the run has loaded so far, these included. */
    readonly loaded: number;
  };
  'output.fallback-used': EventBase & {
    readonly tier: 'fallback' | 'canned';
    /** The rule whose decision the fallback answers (e.g. `schema-retry-exhausted`). */
    readonly rule: string;
    readonly reason: string;
  };
  'listener.error': EventBase & { readonly event: string; readonly errorName: string; readonly message: string };
  /**
   * The tool list of an MCP server whose tools the run holds changed (its list-changed
   * notification, or `refresh()`): agents built from now on get the new list (`tools`, the Keel
   * names); this run keeps the tools it started with.
   */
  'mcp.tools-changed': EventBase & { readonly server: string; readonly tools: readonly string[]; readonly added: readonly string[]; readonly removed: readonly string[] };
  /** A tool of a new listing was left out (`invalidTools: 'skip'`): its schema or name cannot be used. */
  'mcp.tool-refused': EventBase & {
    readonly server: string;
    /** The tool's name on the server. */
    readonly toolName: string;
    /** `input-schema`, `name` or `name-collision`. */
    readonly problem: string;
    readonly message: string;
  };
  /** Listing the tools again after a list-changed notification failed; the previous list stays current. */
  'mcp.refresh-failed': EventBase & { readonly server: string; readonly errorName: string; readonly message: string };
  /**
   * The connection to the server ended (a crash, an exit, a broken network, `close()`): calls fail
   * from now on. A run that starts with tools of a server already closed is told at its start.
   */
  'mcp.server-closed': EventBase & {
    readonly server: string;
    /** `closed` (the server went away) or `closed-by-client` (`close()`). */
    readonly failure: string;
    readonly message: string;
  };
}

/** An event name. */
export type AgentEventName = keyof AgentEvents;

/** A listener of one event. What it returns is ignored, except that a returned promise's rejection, as a throw, is reported as `listener.error`; neither changes anything. */
export type AgentListener<E extends AgentEventName> = (payload: AgentEvents[E]) => unknown;

/** A payload as the emitter builds it: the base fields are filled in by the run. */
export type EventPayload<E extends AgentEventName> = Omit<AgentEvents[E], keyof EventBase>;

/**
 * A payload built whole where it happens (`runId`, `step` and `timestamp` first; the run adds a
 * sub-agent's `parentRunId`), writable while it is built: its optional fields go last, set only
 * when present. Built as one object literal, it is delivered as it is (frozen), with no copy.
 */
export type BuiltPayload<E extends AgentEventName> = { -readonly [K in keyof Omit<AgentEvents[E], 'parentRunId'>]: Omit<AgentEvents[E], 'parentRunId'>[K] };
