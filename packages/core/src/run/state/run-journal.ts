import type { RunResult } from '../../agent/run-result';
import type { UsageLedger } from '../../usage/usage-ledger';
import type { RunState } from './run-state';

/**
 * Where a durable run writes its checkpoints (made over the agent's run store by
 * `durable/durable-journal.ts`). Every write is awaited before the run goes on, and a refused
 * write (a newer owner took the run) fails the run.
 */
export interface RunJournal {
  /** The run's state: between two steps, or mid-turn with the record of its tool calls. */
  save(state: RunState): Promise<void>;
  /** The run ended complete or suspended: its result is what recovering it gives back. */
  finished(result: RunResult<unknown>): Promise<void>;
  /** The run failed (an error, an abort): its last checkpoint stands, marked failed, to recover from. */
  failed(): Promise<void>;
}

/** What a checkpoint reads of the run's context (its journal, its start, the live ledger). */
export interface CheckpointSource {
  readonly journal?: RunJournal | undefined;
  readonly started: number;
  readonly ledger: UsageLedger;
}

/**
 * Writes a checkpoint of `state` when the run is durable: the state with the live ledger's
 * attempts and usage, and the time the run has been under way.
 */
export function saveCheckpoint(context: CheckpointSource, state: RunState): Promise<void> {
  const journal = context.journal;
  if (!journal) return Promise.resolve();
  return journal.save({ ...state, elapsedMs: state.elapsedMs + performance.now() - context.started, attempts: context.ledger.attempts.slice(), usage: context.ledger.snapshot() });
}
