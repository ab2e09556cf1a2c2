import type { RunState } from '../state/run-state';
import type { JournalEntry } from './journal-entry';

/** One step of a run as `agent.iter()` shows it: the entries it added to the journal, and the run's state after it. */
export interface RunStep {
  readonly entries: readonly JournalEntry[];
  readonly state: RunState;
}
