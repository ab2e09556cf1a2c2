import { writeSync } from 'node:fs';

/** What a trace with events not yet handed to the disk does when the process is about to end. */
export interface UnwrittenEvents {
  /** Starts writing what waits; the event loop stays alive until it is written. */
  flush(): Promise<void>;
  /** Writes what waits synchronously (the process is exiting: nothing asynchronous runs any more). */
  writeNow(): void;
}

const unwritten = new Set<UnwrittenEvents>();
let installed = false;

function beforeExit(): void {
  for (const trace of unwritten) void trace.flush();
}

function onExit(): void {
  for (const trace of unwritten) {
    try {
      trace.writeNow();
    } catch (error) {
      // Nothing can be reported to a run any more; say it where a person will see it.
      writeSync(2, `keel: trace events were lost at exit: ${error instanceof Error ? error.message : String(error)}\n`);
    }
  }
  unwritten.clear();
}

/**
 * Marks `trace` as holding events not yet written (or, with `waiting` false, as holding none).
 * While any does, the process's `beforeExit` starts their write (a script that never called
 * `flush()` still gets its whole trace) and its `exit` writes what is left synchronously (an
 * uncaught error or `process.exit()` loses nothing that had been received). A process killed by
 * a signal loses what was not written yet, never a line already written.
 */
export function markUnwritten(trace: UnwrittenEvents, waiting: boolean): void {
  if (!waiting) {
    unwritten.delete(trace);
    return;
  }
  unwritten.add(trace);
  if (installed) return;
  installed = true;
  process.on('beforeExit', beforeExit);
  process.on('exit', onExit);
}
