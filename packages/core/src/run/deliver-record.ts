import { reduceError } from '@keel/reliability/internal';
import type { EventBus } from '../events/event-bus';
import type { RecordedRun, RunRecordListener } from '../agent/recorded-run';

/** Reports a record listener's failure as `listener.error` (event `record`). */
function report(bus: EventBus, run: RecordedRun, step: number, error: unknown): void {
  if (!bus.has('listener.error')) return;
  const { name, message } = reduceError(error);
  bus.emit('listener.error', { runId: run.runId, step, timestamp: Date.now(), event: 'record', errorName: name, message });
}

/** Hands a run's record to each of `listeners`, each isolated: a failure is reported, never thrown. */
export function deliverRecord(bus: EventBus, listeners: readonly RunRecordListener[], run: RecordedRun, step: number): void {
  for (const listener of listeners) {
    try {
      const returned = listener(run);
      if (returned && typeof returned.then === 'function') returned.then(undefined, (error: unknown) => report(bus, run, step, error));
    } catch (error) {
      report(bus, run, step, error);
    }
  }
}
