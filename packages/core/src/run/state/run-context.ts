import type { AttemptRecord, TokenUsage } from '@keel/reliability';
import type { AgentEventName, BuiltPayload, EventPayload } from '../../events/agent-events';
import type { EventBus } from '../../events/event-bus';
import type { UsageLedger } from '../../usage/usage-ledger';
import type { RunConfig } from './run-config';
import type { StreamSink } from '../../contracts/stream-part';
import type { PreCheckRule } from '@keel/reliability';
import { raceSignal } from '@keel/reliability/internal';
import type { ModelResponse } from '@keel/provider';
import type { JournalWriter } from '../journal/journal-writer';
import type { RunGate } from '../journal/run-step';
import type { StateSigner } from './state-signer';

/**
 * What a run works with besides its state: configuration, signal, events, the live ledger,
 * the stream sink. No state here is shared between runs, and nothing here is checkpointed (see
 * `RunState` for the plain value that is). Every field is always present (`undefined` when unset).
 */
export interface RunContext {
  readonly config: RunConfig;
  readonly runId: string;
  /** The run that called this one, when the agent runs as a tool (`agent.asTool()`). */
  readonly parentRunId: string | undefined;
  /** Model calls of runs this run called (agents as tools), which its ledger records too. */
  readonly nestedAttempts: Set<AttemptRecord>;
  /** The calling run's tool call this run answers, when it has a parent. */
  readonly parentToolCallId: string | undefined;
  /** The system prompt of this run: the agent's, then any system messages given as input. */
  readonly system: string | undefined;
  /** The caller's signal, when the run can be cancelled. */
  readonly signal: AbortSignal | undefined;
  /** The signal tools receive: the caller's, or one of the run's own (never shared between runs). */
  readonly toolSignal: AbortSignal;
  readonly bus: EventBus;
  /** The one ledger: every attempt record and the usage they add up to. */
  readonly ledger: UsageLedger;
  /** Receives stream parts when the run was started with `stream()`. */
  readonly sink: StreamSink | undefined;
  /** The step the run is in (the driver gives each step its own context: nothing writes it). */
  readonly step: number;
  /**
   * Admits the run's model calls one at a time (PreCheck and call together) when PreCheck rules are
   * configured, so concurrent tool re-asks each see what the others spent; absent otherwise.
   */
  readonly exclusive: (<T>(work: () => Promise<T>) => Promise<T>) | undefined;
  /** The memory conversation the run loads and appends to; absent without memory. */
  readonly conversationId: string | undefined;
  /** `performance.now()` when this part of the run started (a resumed run's earlier parts are in `RunState.elapsedMs`). */
  readonly started: number;
  /** Model calls the ledger held when this part of the run started (a continued run's earlier ones). */
  readonly callsAtStart: number;
  /** How deep this run is (0: no run started it), and the deepest nesting allowed below the top run. */
  readonly depth: number;
  readonly maxDepth: number;
  /** The usage budgets count: the whole tree of runs, for a run started by another. Call it on the context (`context.budgetUsage()`). */
  readonly budgetUsage: (this: RunContext) => TokenUsage;
  /** PreCheck rules of this run: its own, then those of the runs above it (budgets hold across sub-agents). */
  readonly preCheck: readonly PreCheckRule<ModelResponse>[];
  /** Signs the state of a run that suspends, naming the agent (see `RunStateSnapshot`). */
  readonly sealing: { readonly signer: StateSigner; readonly agent: () => Promise<string>; readonly ttlMs: number } | undefined;
  /** Writes the run's journal (to its store when durable, to the agent's journal listeners, to `iter()`); absent when nothing reads it. */
  readonly journal: JournalWriter | undefined;
  /** Told after each step with what it added to the journal (`agent.iter()`); the run waits for it. */
  readonly gate: RunGate | undefined;
  /** Told once a resumed run's decided calls are about to run (before it, a failed resume has run nothing). */
  readonly resumeBegan: (() => void) | undefined;
  /*
   * The run's events: the same functions serve every run (`this` is the run's context), where
   * closures made per run would be held by each run in flight. Call them on the context, as
   * `context.emit(...)`, never detached.
   */
  /** True when anything listens to `event`: callers skip building payloads nobody reads. */
  readonly listens: (this: RunContext, event: AgentEventName) => boolean;
  /** Emits an event of the run, filling in `runId`, `step` and `timestamp`; skips work when nobody listens. */
  readonly emit: <E extends AgentEventName>(this: RunContext, event: E, payload: EventPayload<E>) => void;
  /**
   * Emits a payload built whole by the caller (see {@link BuiltPayload}): no copy is made, so it
   * costs a fraction of `emit`. For events of every run; call it only when `listens(event)`.
   */
  readonly emitBuilt: <E extends AgentEventName>(this: RunContext, event: E, payload: BuiltPayload<E>) => void;
}

/**
 * A lock running work one piece at a time, in arrival order. Waiting for a turn is raced against
 * `signal`, so an aborted run never queues behind a call that hangs.
 */
export function runLock(signal: AbortSignal | undefined): <T>(work: () => Promise<T>) => Promise<T> {
  let tail: Promise<unknown> = Promise.resolve();
  return <T>(work: () => Promise<T>): Promise<T> => {
    const turn = tail.then(() => undefined, () => undefined);
    const result = raceSignal(turn, signal).then(work);
    // The next caller waits for this work to settle, whatever its outcome.
    tail = result.then(() => undefined, () => undefined);
    return result;
  };
}
