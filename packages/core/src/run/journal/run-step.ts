import type { RunState } from '../../contracts/run-state';

export type { RunState };
import type { JournalEntry } from './journal-entry';

/** One step of a run as `agent.iter()` shows it: the entries it added to the journal, and the run's state after it. */
export interface RunStep {
  readonly entries: readonly JournalEntry[];
  readonly state: RunState;
}

/**
 * How `agent.iter()` takes a run step by step: it sees every entry as it is written (`observe`,
 * also those of a step that fails), and the run waits in `step` after each step until the reader
 * asks for the next.
 */
export interface RunGate {
  readonly observe: (entries: readonly JournalEntry[]) => void;
  readonly step: (state: RunState) => Promise<void>;
}
