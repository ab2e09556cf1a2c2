import type { AssistantMessage, FinishReason } from '@keel/provider';
import type { PendingApproval } from '../tools/pending-approval';
import type { ToolCallRecord } from '../tools/tool-result';
import type { UnknownOutcome } from '../tools/unknown-outcome';
import type { JournalHead } from './journal-head';
import type { RunState } from './run-state';

/** The format version of {@link RunStateSnapshot}s this Keel writes and reads (it reads format 1 too: see `upgradeRunState`). */
export const RUN_STATE_VERSION = 2;

/** The step a run suspended in: the model's turn, the calls that ran, the calls that wait. */
export interface SuspendedTurn {
  /** The model's turn, each tool call with the arguments it ran with (or waits with). */
  readonly assistant: AssistantMessage;
  readonly text: string;
  readonly finishReason: FinishReason;
  /** The turn's calls that needed no approval: they ran before the run suspended. */
  readonly finished: readonly ToolCallRecord[];
  /** Model calls made in the step (retries and re-asks included). */
  readonly modelCalls: number;
  /** Milliseconds the step took until it suspended. */
  readonly durationMs: number;
}

/** `T` as JSON keeps it: an optional field is absent, never `undefined`. */
type AsJson<T> = { readonly [K in keyof T]: Exclude<T[K], undefined> };

/** What a suspended state keeps of the run's {@link RunState}: each field means what it does there. */
type KeptRunState = AsJson<Pick<RunState, 'runId' | 'conversationId' | 'tenant' | 'system' | 'startedAt' | 'elapsedMs' | 'step' | 'messages' | 'steps' | 'toolCalls' | 'attempts' | 'usage' | 'compaction' | 'loadedTools'>>;

/**
 * A suspended run, as plain JSON: what `agent.resume()` needs to go on without asking the model
 * again for the suspended step. Versioned, and signed (HMAC-SHA-256 with the agent's `stateKey`)
 * over everything in it: a state that was changed, or that another agent made, is refused.
 * Store it, send it to a client and take it back; never edit it.
 *
 * Besides what it keeps of the run's state (its id, conversation, tenant, system prompt, start,
 * time under way, step, kept messages, steps, tool calls, model calls, usage, what compaction
 * had done to what the run sends and the deferred tools it had loaded, as of the suspension), it holds the suspended turn and the calls that wait.
 */
export interface RunStateSnapshot extends KeptRunState {
  readonly type: 'keel.run-state';
  readonly version: typeof RUN_STATE_VERSION;
  /** The agent that made it: its `id`, or a digest of its tools' names and input schemas and its output schema. */
  readonly agent: string;
  /** Milliseconds since the epoch after which the state is refused (`expired`). */
  readonly expiresAt: number;
  /** New for every suspension: an agent resumes each one once. */
  readonly suspensionId: string;
  /** Milliseconds since the epoch. */
  readonly suspendedAt: number;
  readonly turn: SuspendedTurn;
  /** The calls waiting for a decision. */
  readonly pending: readonly PendingApproval[];
  /** Calls of `once` tools a crash left without a known outcome (a recovered durable run): `outcomes` or `retry` settles each. */
  readonly unknown?: readonly UnknownOutcome[];
  /** Action loops detected before the suspension (absent: none): the resumed run goes on counting. */
  readonly loops?: number;
  /** Where the run's journal stood after its suspension entry: the resumed run's entries go on from it. */
  readonly journal?: JournalHead;
  /** HMAC-SHA-256 (hex) of the rest, in canonical JSON. */
  readonly signature: string;
}

/** A state before it is signed. */
export type UnsignedState = Omit<RunStateSnapshot, 'type' | 'version' | 'signature'>;

