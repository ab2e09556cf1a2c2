import { writeSync } from 'node:fs';
import type { RecordedRun } from '@keel/core';
import { markUnwritten, type UnwrittenEvents } from './exit-hooks';
import { TraceBatches } from './trace-batches';
import type { DrainTarget } from './trace-drain';
import { TraceMemory } from './trace-memory';
import { closeWhenCollected, traceThread } from './trace-thread';

/** How long the process's exit waits for the writing thread to finish a write before writing the rest itself. */
const EXIT_WAIT_MS = 2000;

/** Options of {@link traceStream}. */
export interface TraceStreamOptions extends DrainTarget {
  /** Write the records' content (see `FileTraceOptions.recordContent`). */
  readonly recordContent: boolean;
  /** The secrets the writing thread replaces (the redactor's list). */
  readonly secrets: readonly string[];
  /** Entries held while the disk is behind; beyond it, newer ones are dropped and reported. */
  readonly maxPending: number;
}

/** What `fileTrace`'s listeners call. */
export interface TraceStream {
  /** Keeps a run's record; may return a write for the bus to watch (its failure is the agent's `listener.error`). */
  record(run: RecordedRun): Promise<void> | undefined;
  /** Keeps an event's JSON line; `reports` false for a line whose failure must not be reported (a `listener.error`'s own). */
  line(text: string, reports: boolean): Promise<void> | undefined;
  /** Writes what waits now; settles when it is written or its failure reported (never rejects). */
  flush(): Promise<void>;
}

/**
 * A trace's entries on their way to its file. On the run's thread an entry is only encoded into
 * shared memory (no JSON, no write); the process's writing thread makes the lines and appends
 * them. Entries are sealed in batches when the run yields to the event loop (or at `flush()`):
 * the writing thread then writes what is published and answers with the failures, which settle
 * the batch. At the process's exit, what the thread has not taken is written here, synchronously.
 */
export function traceStream(options: TraceStreamOptions): TraceStream {
  const { path } = options;
  const memory = new TraceMemory((slab) => thread.send({ type: 'slab', id, slab }));
  /** Why the writing thread is gone, once it is: this thread then writes the trace itself. */
  let orphaned: string | undefined;

  const batches: TraceBatches = new TraceBatches({
    path,
    maxPending: options.maxPending,
    opened() {
      markUnwritten(unwritten, true);
      setImmediate(() => batches.seal());
    },
    sealed(batch) {
      if (orphaned === undefined) {
        thread.hold();
        thread.send({ type: 'seal', id, batch });
      } else batches.answered({ type: 'sealed', id, batch, ...memory.writeHere(options) });
    },
  });
  const { thread, id } = traceThread({
    sealed(reply) {
      if (batches.answered(reply) && !batches.busy && memory.pending() === 0) markUnwritten(unwritten, false);
    },
    spare(spares) {
      for (const slab of spares) memory.writer.spare(slab);
    },
    stopped(message) {
      orphaned = message;
      memory.closeLock();
      const { failures, lost } = memory.writeHere(options);
      for (let count = batches.answerAll(failures, lost); count > 0; count--) thread.release();
    },
  });
  thread.send({ type: 'open', id, path, secrets: options.secrets, control: memory.control.buffer as SharedArrayBuffer, slab: memory.writer.first });

  /** Whether one more entry may wait for the disk (else it is counted dropped). */
  const admit = (): boolean => {
    if (memory.pending() < options.maxPending) return true;
    batches.drop();
    return false;
  };

  const unwritten: UnwrittenEvents = {
    async flush() {
      batches.seal();
      await batches.settled();
    },
    writeNow() {
      if (!memory.takeLock(EXIT_WAIT_MS)) {
        writeSync(2, `keel: the trace ${path} was still being written at exit; what was not written is lost\n`);
        return;
      }
      const { failures } = memory.writeHere(options);
      if (failures.length > 0) throw new Error(failures.join('; '));
    },
  };

  const stream: TraceStream = {
    record(run) {
      if (admit()) memory.record(run, options.recordContent);
      return batches.claim(true);
    },
    line(text, reports) {
      if (admit()) memory.line(text);
      return batches.claim(reports);
    },
    flush: unwritten.flush,
  };
  closeWhenCollected(stream, thread, id);
  return stream;
}
