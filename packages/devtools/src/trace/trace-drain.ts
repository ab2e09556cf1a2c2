import { fileAppender } from './file-appender';
import { recordLine } from './record-entry';
import { EntryKind, type SlabReader } from './trace-slabs';

/**
 * Slots of a trace's control memory, shared by the thread that fills its slabs and the one that
 * writes them: entries taken so far, the lock of whoever writes, and where the writer stands.
 */
export const Control = {
  taken: 0,
  lock: 1,
  slab: 2,
  offset: 3,
} as const;
export const CONTROL_SLOTS = 4;

/** `Control.lock`: free, held by the writing thread, or closed for good (the process is exiting). */
export const Lock = { free: 0, held: 1, closed: 2 } as const;

/** What a drain writes to. */
export interface DrainTarget {
  readonly path: string;
  /** Quotes a string as JSON with its secrets replaced (`jsonQuoter`). */
  readonly quote: (text: string) => string;
}

/** The outcome of a drain: entries taken, and the message of a write that failed (its entries are lost). */
export interface Drained {
  readonly taken: number;
  readonly failure?: { readonly message: string; readonly lost: number };
}

/** The lines of the entries taken; an entry that cannot be read is counted, never guessed at. */
function linesOf(reader: SlabReader, target: DrainTarget): { text: string; count: number; broken: number } {
  let text = '';
  let count = 0;
  let broken = 0;
  for (const entry of reader.take()) {
    count++;
    try {
      if (entry.kind === EntryKind.record) text += recordLine(entry.reader, target.quote);
      else text += entry.reader.string() ?? '';
    } catch {
      broken++;
    }
  }
  return { text, count, broken };
}

/**
 * Writes every entry published since the last drain to the trace file, in one synchronous append
 * of whole lines, and records in `control` how many were taken and where the reader stands. The
 * caller holds `Control.lock`.
 */
export function drain(reader: SlabReader, control: Int32Array, target: DrainTarget): Drained {
  const { text, count, broken } = linesOf(reader, target);
  if (count === 0) return { taken: 0 };
  let failure: Drained['failure'];
  try {
    if (text !== '') fileAppender(target.path).appendNow(text);
    if (broken > 0) failure = { message: `${broken} event(s) could not be read back to be written to ${target.path}`, lost: broken };
  } catch (error) {
    failure = { message: `${count} event(s) could not be written to ${target.path}: ${error instanceof Error ? error.message : String(error)}`, lost: count };
  }
  const { slab, offset } = reader.position;
  Atomics.store(control, Control.slab, slab);
  Atomics.store(control, Control.offset, offset);
  Atomics.add(control, Control.taken, count);
  return failure === undefined ? { taken: count } : { taken: count, failure };
}
