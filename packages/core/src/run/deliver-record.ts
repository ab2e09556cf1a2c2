import { isPromiseLike } from '@keel/reliability/internal';
import type { RecordedRun, RunRecordListener } from '../contracts/recorded-run';
import type { EventBus } from '../events/event-bus';

/**
 * Hands a run's record to each of `listeners`, each isolated: a failure is reported as
 * `listener.error` (event `record`), never thrown. The record's lists are frozen first: they are
 * the result's own, which the run's caller receives after the listeners, unchanged.
 */
export function deliverRecord(bus: EventBus, listeners: readonly RunRecordListener[], run: RecordedRun, step: number): void {
  const { record } = run;
  Object.freeze(record.attempts);
  Object.freeze(record.steps);
  Object.freeze(record.toolCalls);
  Object.freeze(run.ownAttempts);
  Object.freeze(run);
  const at = { runId: run.runId, step };
  for (const listener of listeners) {
    try {
      const returned = listener(run);
      if (isPromiseLike(returned)) returned.then(undefined, (error: unknown) => bus.reportFailure('record', at, error));
    } catch (error) {
      bus.reportFailure('record', at, error);
    }
  }
}
