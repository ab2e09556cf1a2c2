import type { AgentEventName, EventPayload } from '../events/agent-events';
import type { EventBus } from '../events/event-bus';
import type { UsageLedger } from '../usage/usage-ledger';
import type { RunConfig } from './run-config';
import type { StreamSink } from '../agent/stream-part';
import { raceSignal } from '@keel/reliability/internal';

/**
 * The mutable state of one run. Nothing here is shared between runs. Every field is always
 * present (`undefined` when unset), so every run's state has one shape.
 */
export interface RunState {
  readonly config: RunConfig;
  readonly runId: string;
  /** The run that called this one, when the agent runs as a tool (`agent.asTool()`). */
  readonly parentRunId: string | undefined;
  /** The system prompt of this run: the agent's, then any system messages given as input. */
  readonly system: string | undefined;
  /** The caller's signal, when the run can be cancelled. */
  readonly signal: AbortSignal | undefined;
  /** The signal tools receive: the caller's, or one made on first use (never shared between runs). */
  toolSignal: AbortSignal | undefined;
  readonly bus: EventBus;
  /** The one ledger: every attempt record and the usage they add up to. */
  readonly ledger: UsageLedger;
  /** Receives stream parts when the run was started with `stream()`. */
  readonly sink: StreamSink | undefined;
  step: number;
  /** Whether the current attempt has shown text to a pass-through stream. */
  shownText: boolean;
  /**
   * Admits the run's model calls one at a time (PreCheck and call together) when PreCheck rules are
   * configured, so concurrent tool re-asks each see what the others spent; absent otherwise.
   */
  readonly exclusive: (<T>(work: () => Promise<T>) => Promise<T>) | undefined;
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

/** True when anything listens to `event`: callers skip building payloads nobody reads. */
export function listens(state: RunState, event: AgentEventName): boolean {
  return state.bus.has(event);
}

/** Emits an event of the run, filling in `runId`, `step` and `timestamp`; skips work when nobody listens. */
export function emit<E extends AgentEventName>(state: RunState, event: E, payload: EventPayload<E>): void {
  if (!state.bus.has(event)) return;
  // Object.assign onto a fresh literal: an object spread here, then frozen, costs tens of times more in V8.
  const base = state.parentRunId === undefined ? { runId: state.runId, step: state.step, timestamp: Date.now() } : { runId: state.runId, parentRunId: state.parentRunId, step: state.step, timestamp: Date.now() };
  state.bus.emit(event, Object.assign(base, payload) as never);
}
