import type { AttemptRecord, JsonRepair, ValidationIssue } from '@keel/reliability';
import type { Coercion } from '@keel/reliability/internal';
import type { Provenance } from './provenance';
import type { StepRecord } from './step-record';
import type { PendingApproval } from '../tools/pending-approval';
import type { ToolCallRecord } from '../tools/tool-result';
import type { UnknownOutcome } from '../tools/unknown-outcome';
import type { RunUsage } from '../usage/usage-ledger';
import type { Compaction } from '../context/compaction';
import type { FinishReason, Message, ModelResponse } from '@keel/provider';

/** What the run's answer says besides its text. */
export interface Answer {
  readonly value: unknown;
  readonly provenance: Provenance;
  readonly repairs: readonly JsonRepair[];
  readonly coercions: readonly Coercion[];
  readonly issues: readonly ValidationIssue[];
}

/**
 * What a resumed run was told to do with one call that waited: an approval decision, an
 * unknown outcome settled by what happened (`output`, the result as the model reads it), or
 * an unknown outcome to run again (`retry`, with the same idempotency key).
 */
export type CallDecision =
  | { readonly type: 'approved'; readonly nested?: unknown }
  | { readonly type: 'rejected'; readonly reason: string | undefined; readonly nested?: unknown }
  | { readonly type: 'outcome'; readonly output: string }
  | { readonly type: 'retry' };

/** A tool call about to execute in a durable run: recorded (the intent) before it does. */
export interface ToolIntent {
  readonly toolCallId: string;
  readonly toolName: string;
  /** The checked arguments it runs with. */
  readonly arguments: unknown;
}

/** What a durable run recorded of a turn's calls so far: each call's intent before it ran, its record once it finished. */
export interface ToolJournal {
  readonly intents: readonly ToolIntent[];
  readonly outcomes: readonly ToolCallRecord[];
}

/** A model turn that called tools: what the `call-tools` step runs. */
export interface ToolTurn {
  readonly content: ModelResponse['content'];
  readonly text: string;
  readonly finishReason: FinishReason;
  /** Model calls made in the step so far (retries and re-asks included), when the turn was resumed from a suspension. */
  readonly modelCalls?: number;
  /** Milliseconds the step took before it suspended, when resumed. */
  readonly durationMs?: number;
  /** A resumed turn: the calls that ran before the run suspended, and the decision of each pending call. */
  readonly resumed?: {
    readonly suspensionId: string;
    readonly finished: readonly ToolCallRecord[];
    readonly decisions: Readonly<Record<string, CallDecision>>;
  };
  /** A durable run's record of the turn's calls, when a checkpoint holds the turn mid-way (a recovered run goes on from it). */
  readonly journal?: ToolJournal;
  /**
   * The turn goes on after a compaction made room for a tool-argument re-ask the vendor refused
   * as too long: the calls that finished before the refusal (kept, never run again). A second
   * refusal in the turn fails the run, as a step's does.
   */
  readonly overflowed?: { readonly finished: readonly ToolCallRecord[] };
}

/** A turn whose calls wait for approval or a settled outcome: what the `suspend` step seals. */
export interface SuspendingTurn {
  readonly turn: ToolTurn;
  readonly finished: readonly ToolCallRecord[];
  readonly pending: readonly PendingApproval[];
  /** Calls a crash left without a known outcome whose tools are `once`: a person settles them. */
  readonly unknown: readonly UnknownOutcome[];
  /** Model calls and milliseconds of the step until it suspended. */
  readonly modelCalls: number;
  readonly durationMs: number;
}

/**
 * The step a run takes next. Each is a file of `run/steps/`: `load-memory` (then `then`),
 * `compact-context` (what is sent passed `compactAt` of the window, or the vendor refused it as
 * too long; with `turn`, the refused call was a re-ask of that turn's, which goes on after it),
 * `ask-model` (the attempt loop; `compacted` after a compaction, `overflow` when it retries the
 * step the vendor refused), `call-tools` (a turn's calls, or a resumed turn's decided calls),
 * `suspend` (calls wait for approval), `end` (the final answer).
 */
export type NextStep =
  | { readonly type: 'load-memory'; readonly then: NextStep }
  | { readonly type: 'compact-context'; readonly reason: 'threshold' | 'overflow'; readonly turn?: ToolTurn }
  | { readonly type: 'ask-model'; readonly compacted?: 'threshold' | 'overflow' }
  | { readonly type: 'call-tools'; readonly turn: ToolTurn }
  | { readonly type: 'suspend'; readonly suspending: SuspendingTurn }
  | { readonly type: 'end'; readonly text: string; readonly finishReason: FinishReason; readonly answer: Answer };

/**
 * The run's whole state between two steps: one plain, serializable value. A step receives it
 * and returns the next one; the driver (`run-loop.ts`) hands each to an optional checkpoint (a
 * durable run's store). `attempts` and `usage` are the run's ledger when the step ended.
 */
export interface RunState {
  /** The run's id: a resumed run keeps it (so a memory store replaces, never duplicates, its exchange). */
  readonly runId: string;
  /** The memory conversation the run appends to when it ends. */
  readonly conversationId?: string | undefined;
  /** The tenant the run works for, when it was given one: signed into a suspended state, which then resumes only for it. */
  readonly tenant?: string | undefined;
  /** The run's system prompt: the agent's, then any system messages of its input. */
  readonly system?: string | undefined;
  /** Milliseconds since the epoch. */
  readonly startedAt: number;
  /** Milliseconds the run was under way before this part of it (a resumed run's earlier parts; in a suspended state, all of it until it suspended). */
  readonly elapsedMs: number;
  /** The last step begun (0 before the first; in a suspended state, the step that suspended). */
  readonly step: number;
  /**
   * The run's kept messages: its input, then each kept turn (memory's conversation apart: a
   * resumed run loads it again). In a suspended state, those before the suspended turn.
   */
  readonly messages: readonly Message[];
  readonly steps: readonly StepRecord[];
  /** Tool calls of the steps so far (in a suspended state, of the steps before the suspended one). */
  readonly toolCalls: readonly ToolCallRecord[];
  /**
   * Every model call so far, failed attempts and re-asks included, and what they add up to: a
   * resumed run's ledger, usage and budgets go on from them.
   */
  readonly attempts: readonly AttemptRecord[];
  readonly usage: RunUsage;
  /** What compaction has done to what the run sends (absent before the first compaction); the kept messages never change. */
  readonly compaction?: Compaction | undefined;
  /** Deferred tools the run has loaded (found by `tool_search`, or called by name), in the order loaded: sent from then on (absent: none). */
  readonly loadedTools?: readonly string[] | undefined;
  /**
   * What memory's `load` gave for the conversation (never ephemeral messages): absent until it is
   * loaded. Never journaled: a continued run loads it again.
   */
  readonly history?: readonly Message[] | undefined;
  /** `performance.now()` when the current step began, and the ledger's model calls then: what its step record reports (never journaled). */
  readonly stepBegan?: { readonly at: number; readonly calls: number } | undefined;
  /** Action loops the run's loop rules detected so far: each was a nudge, until a rule stopped the run (a resumed or recovered run goes on counting). */
  readonly loops: number;
  readonly next: NextStep;
}

/** What a step returns: the next state, or the run's end (with its last state: the final turn kept). */
export type StepOutcome<TResult> = { readonly type: 'next'; readonly state: RunState } | { readonly type: 'done'; readonly result: TResult; readonly state: RunState };

