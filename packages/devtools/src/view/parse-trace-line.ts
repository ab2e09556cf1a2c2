import { upgradeJournalEntry } from '@keel/core/internal';
import { isObject } from './fields';

/** A journal entry read back from a trace file: its run, its number and type checked, every other field read as it comes. */
export type ReadEntry = Readonly<Record<string, unknown>> & { readonly runId: string; readonly seq: number; readonly type: string; readonly step: number; readonly at: number };

/** An event read back from a trace file: its name and payload, checked for the fields every event has. */
export interface ReadEvent {
  readonly event: string;
  readonly payload: Readonly<Record<string, unknown>> & { readonly runId: string; readonly step: number; readonly timestamp: number; readonly parentRunId?: string };
}

/** A line of a trace file: a journal entry, an event, or a note of the writer (lines it dropped). */
export type TraceLine = { readonly kind: 'entry'; readonly entry: ReadEntry } | { readonly kind: 'event'; readonly event: ReadEvent } | { readonly kind: 'note'; readonly dropped: number };

const isCount = (value: unknown): value is number => typeof value === 'number' && Number.isInteger(value) && value >= 0;

/**
 * Reads one line of a trace file, or `undefined` when it is none of the three (not JSON; an entry
 * without a run id, a number, a type, a step and a time; an event without a name and a payload
 * with a run id, a step and a timestamp; a `run.record` line of a trace written before the journal). Entries of types and events of names the viewer does not
 * know are kept: a newer Keel may write them. An entry an earlier format wrote is read as this
 * format has it (`upgradeJournalEntry`: its tool calls named `toolCallId` / `toolName`).
 */
export function parseTraceLine(line: string): TraceLine | undefined {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (!isObject(value)) return undefined;
  if (isObject(value.trace)) return isCount(value.trace.dropped) ? { kind: 'note', dropped: value.trace.dropped } : undefined;
  if (typeof value.event === 'string') {
    const { payload } = value;
    // A run's record, as traces wrote it before the journal: read as nothing (its runs show what their other events say).
    if (value.event === 'run.record') return undefined;
    if (!isObject(payload) || typeof payload.runId !== 'string' || payload.runId === '' || typeof payload.step !== 'number' || typeof payload.timestamp !== 'number') return undefined;
    if (payload.parentRunId !== undefined && typeof payload.parentRunId !== 'string') return undefined;
    return { kind: 'event', event: value as unknown as ReadEvent };
  }
  if (typeof value.runId !== 'string' || value.runId === '' || !isCount(value.seq) || typeof value.type !== 'string' || typeof value.step !== 'number' || typeof value.at !== 'number') return undefined;
  return { kind: 'entry', entry: upgradeJournalEntry(value) as ReadEntry };
}
