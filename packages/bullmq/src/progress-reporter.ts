import type { Job } from 'bullmq';
import type { RunProgressKind } from './agent-runner';
import type { RunJobProgress } from './run-job';

/** Reports one run's progress on its job. */
export interface ProgressReporter {
  /** Counts what happened and sends the job's new progress, after the updates before it. */
  readonly onProgress: (kind: RunProgressKind, step: number) => void;
  /** Settles once every update sent so far has been written (or dropped). */
  settled(): Promise<unknown>;
}

/** The progress before anything happened. */
const START: RunJobProgress = { step: 0, retries: 0, toolCalls: 0, toolReAsks: 0, events: 0, last: 'start' };

/** The progress after `kind` happened at step `step`. */
function nextProgress(before: RunJobProgress, kind: RunProgressKind, step: number): RunJobProgress {
  return {
    step: kind === 'step-start' ? step : before.step,
    retries: before.retries + (kind === 'retry' ? 1 : 0),
    toolCalls: before.toolCalls + (kind === 'tool-result' ? 1 : 0),
    toolReAsks: before.toolReAsks + (kind === 'tool-re-ask' ? 1 : 0),
    events: before.events + 1,
    last: kind,
  };
}

/**
 * Reports a run's progress on `job`: each event's progress is a snapshot sent in order, one at a
 * time, never holding the run; a failed update is dropped.
 */
export function progressReporter(job: Pick<Job, 'updateProgress'>): ProgressReporter {
  let progress = START;
  let reporting: Promise<unknown> = Promise.resolve();
  return {
    onProgress: (kind, step) => {
      const next = nextProgress(progress, kind, step);
      progress = next;
      reporting = reporting.then(() => job.updateProgress(next)).catch(() => undefined);
    },
    settled: () => reporting,
  };
}
