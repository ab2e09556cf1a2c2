import { writeSync } from 'node:fs';
import type { RecordedRun } from '@keel/core';
import { markUnwritten, type UnwrittenEvents } from './exit-hooks';
import { writeRecord } from './record-entry';
import { TraceBatches } from './trace-batches';
import { CONTROL_SLOTS, Control, type DrainTarget, drain, Lock } from './trace-drain';
import { EntryKind, SlabReader, SlabWriter } from './trace-slabs';
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
  const control = new Int32Array(new SharedArrayBuffer(CONTROL_SLOTS * 4));
  /** Slabs the writing thread may not have read to the end, the first numbered `firstSlab`. */
  const slabs: SharedArrayBuffer[] = [];
  let firstSlab = 0;
  let written = 0;
  const pending = () => written - Atomics.load(control, Control.taken);

  /** Why the writing thread is gone, once it is: this thread then writes the trace itself. */
  let orphaned: string | undefined;

  /**
   * Writes here, synchronously, what the writing thread has not taken, the lock closed for good:
   * at the process's exit, or once that thread is gone.
   */
  const writeHere = (): { failures: string[]; lost: number } => {
    const at = { slab: Atomics.load(control, Control.slab), offset: Atomics.load(control, Control.offset) };
    const { failure } = drain(new SlabReader(slabs.slice(Math.max(0, at.slab - firstSlab)), at), control, options);
    return failure ? { failures: [failure.message], lost: failure.lost } : { failures: [], lost: 0 };
  };

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
        return;
      }
      batches.answered({ type: 'sealed', id, batch, ...writeHere() });
    },
  });
  const { thread, id } = traceThread({
    sealed(reply) {
      if (!batches.answered(reply)) return;
      if (!batches.busy && pending() === 0) markUnwritten(unwritten, false);
    },
    spare(spares) {
      for (const slab of spares) writer.spare(slab);
    },
    stopped(message) {
      orphaned = message;
      // A thread that died in a write left its lock held: it will not write again.
      Atomics.store(control, Control.lock, Lock.closed);
      const { failures, lost } = writeHere();
      for (let count = batches.answerAll(failures, lost); count > 0; count--) thread.release();
    },
  });

  const writer = new SlabWriter((slab) => {
    const read = Atomics.load(control, Control.slab);
    while (firstSlab < read && slabs.length > 0) {
      slabs.shift();
      firstSlab++;
    }
    slabs.push(slab);
    thread.send({ type: 'slab', id, slab });
  });
  slabs.push(writer.first);
  thread.send({ type: 'open', id, path, secrets: options.secrets, control: control.buffer as SharedArrayBuffer, slab: writer.first });

  /** Whether one more entry may wait for the disk (else it is counted dropped). */
  const admit = (): boolean => {
    if (pending() < options.maxPending) return true;
    batches.drop();
    return false;
  };

  const unwritten: UnwrittenEvents = {
    async flush() {
      batches.seal();
      await batches.settled();
    },
    writeNow() {
      // Take the lock for good: wait while the writing thread is in a write, then write the rest here.
      const deadline = Date.now() + EXIT_WAIT_MS;
      while (Atomics.compareExchange(control, Control.lock, Lock.free, Lock.closed) === Lock.held) {
        if (Atomics.wait(control, Control.lock, Lock.held, Math.max(0, deadline - Date.now())) === 'timed-out') {
          writeSync(2, `keel: the trace ${path} was still being written at exit; what was not written is lost\n`);
          return;
        }
      }
      const { failures } = writeHere();
      if (failures.length > 0) throw new Error(failures.join('; '));
    },
  };

  const stream: TraceStream = {
    record(run) {
      if (admit()) {
        writer.begin(EntryKind.record);
        writeRecord(writer, run, options.recordContent);
        writer.end();
        written++;
      }
      return batches.claim(true);
    },
    line(text, reports) {
      if (admit()) {
        writer.begin(EntryKind.line);
        writer.string(text);
        writer.end();
        written++;
      }
      return batches.claim(reports);
    },
    flush: unwritten.flush,
  };
  closeWhenCollected(stream, thread, id);
  return stream;
}
