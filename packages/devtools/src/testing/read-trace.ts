import { readFileSync } from 'node:fs';

/** A line of a trace file, parsed: a journal entry's fields, an event (`event`, `payload`), or a note of the writer (`trace`). */
export type WrittenLine = Record<string, unknown> & { readonly event?: string; readonly payload?: Record<string, unknown>; readonly runId?: string; readonly seq?: number; readonly type?: string };

/** Every line of a trace file, parsed (throws on a line that is not JSON). */
export function readTrace(path: string): WrittenLine[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as WrittenLine);
}

/** The journal entries of one run, in file order. */
export const entriesOf = (lines: readonly WrittenLine[], runId: string) => lines.filter((line) => line.seq !== undefined && line.runId === runId);

/** The events of one run, in file order. */
export const eventsOf = (lines: readonly WrittenLine[], runId: string) => lines.filter((line) => line.event !== undefined && line.payload?.runId === runId);
