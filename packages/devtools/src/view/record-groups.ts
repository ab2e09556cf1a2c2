import type { Payload } from './fields';
import type { ReadEvent } from './parse-trace-line';

/** The line a trace written run by run holds for each run when it ends (or suspends). */
export const RUN_RECORD = 'run.record';

/**
 * The events such a trace writes as they happen, before their run's record; everything else a
 * run did is in the record.
 */
export const RARE_EVENTS: ReadonlySet<string> = new Set([
  'run.suspended',
  'run.resumed',
  'model.error',
  'usage.invalid',
  'tool.re-ask',
  'validation.failed',
  'reliability.retry',
  'reliability.wait',
  'reliability.recovered',
  'reliability.fail-fast',
  'reliability.rule-error',
  'reliability.feedback-error',
  'reliability.loop-detected',
  'output.repaired',
  'output.mode-downgraded',
  'output.schema-lowered',
  'context.compacted',
  'output.fallback-used',
  'listener.error',
  'model.content',
]);

/** Events that may follow a record without a new segment having begun: they belong to the segment that record ended. */
const TRAILING: ReadonlySet<string> = new Set(['run.suspended', 'listener.error']);

/**
 * Whether a run's lines are in the record format: it has a `run.record`, or (in progress) only
 * events that format writes. A run with any other event (`run.start`, `model.request`...) was
 * written one line per event and is read as before.
 */
export function isRecordRun(events: readonly ReadEvent[]): boolean {
  return events.some((event) => event.event === RUN_RECORD) || events.every((event) => RARE_EVENTS.has(event.event));
}

/** One segment of a run in the record format: its events, in file order, and the record that ended it. */
export interface RecordGroup {
  /** Missing for the segment still running (its record is not written yet). */
  readonly record?: Payload;
  /** The events of the segment (before its record, and those after it that belong to it), in file order. */
  readonly events: readonly ReadEvent[];
}

/**
 * Splits a run's lines into segments: each record ends one, the events before it (after the
 * previous record) are its own; a `run.suspended` or `listener.error` right after a record
 * belongs to that record's segment. Events after the last record that open a new segment (a
 * `run.resumed`, a model call's report...) make a last group without a record: the run goes on.
 * Events the record format never writes (a hand-edited file) are left out: the record says it.
 */
export function recordGroups(events: readonly ReadEvent[]): readonly RecordGroup[] {
  const groups: { record?: Payload; events: ReadEvent[] }[] = [];
  let open: ReadEvent[] = [];
  for (const event of events) {
    const previous = groups.at(-1);
    if (event.event === RUN_RECORD) {
      groups.push({ record: event.payload, events: open });
      open = [];
    } else if (!RARE_EVENTS.has(event.event)) continue;
    else if (previous && open.length === 0 && TRAILING.has(event.event)) previous.events.push(event);
    else open.push(event);
  }
  if (open.length > 0 || groups.length === 0) groups.push({ events: open });
  return groups;
}
