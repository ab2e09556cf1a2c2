import type { AttemptRecord } from '@keel/reliability';
import type { RunRecord } from './run-result';
import type { RunEndStatus } from '../events/agent-events';

/** The provider and model of one of a run's targets (the primary first, then each failover). */
export interface RecordedTarget {
  readonly provider: string;
  readonly model: string;
}

/**
 * A run as it ended, for a {@link RunRecordListener}: its records (every attempt, step and tool
 * call, as its result holds them), how it ended, and where it sits among runs.
 */
export interface RecordedRun {
  readonly runId: string;
  /** The run that called this one, when the agent ran as a tool (`agent.asTool()`). */
  readonly parentRunId?: string;
  /** The calling run's tool call this run answered. */
  readonly parentToolCallId?: string;
  /** As `run.end`'s: `suspended` for a run that waits for approvals or unknown outcomes. */
  readonly status: RunEndStatus;
  /**
   * The run's records, the very arrays its result holds (for a run that failed, what it had
   * done): frozen before a listener sees them. Their content (messages, texts, raw outputs, tool
   * arguments and outputs) is the model's and the user's: an exporter decides what to keep.
   */
  readonly record: RunRecord;
  /**
   * The model calls this run made itself: `record.attempts` without those of the runs it called
   * (agents as tools), which its record counts too and whose own records hold them.
   */
  readonly ownAttempts: readonly AttemptRecord[];
  /** The agent's targets, by `AttemptRecord.providerIndex`. */
  readonly targets: readonly RecordedTarget[];
  /** Action loops the run's loop rules detected. */
  readonly loopsDetected: number;
  /** The error the run ended with (`failed` and `aborted`). */
  readonly errorName?: string;
  readonly errorMessage?: string;
}

/**
 * Receives each run of an agent once, when it ends (`builder.onRecord(listener)`). An observer,
 * as event listeners are: a throw or a rejection is reported as `listener.error` (its `event` is
 * `record`) and never changes the run.
 */
export type RunRecordListener = (run: RecordedRun) => unknown;
