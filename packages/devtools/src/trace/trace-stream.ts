import { writeSync } from 'node:fs';
import type { RecordedRun } from '@keel/core';
import { TraceWriteError } from '../errors/trace-write-error';
import { markUnwritten, type UnwrittenEvents } from './exit-hooks';
import { writeRecord } from './record-entry';
import { CONTROL_SLOTS, Control, type DrainTarget, drain, Lock } from './trace-drain';
import type { ThreadReply } from './trace-messages';
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

/** A batch of entries waiting for its write: settled when the writing thread answers its seal. */
interface Batch {
  readonly id: number;
  readonly written: Promise<void>;
  readonly settle: (error?: unknown) => void;
  claimed: boolean;
}

function openBatch(id: number): Batch {
  let settle!: (error?: unknown) => void;
  const written = new Promise<void>((resolve, reject) => (settle = (error) => (error === undefined ? resolve() : reject(error))));
  written.catch(() => undefined);
  return { id, written, settle, claimed: false };
}

/**
 * A trace's entries on their way to its file. On the run's thread an entry is only encoded into
 * shared memory (no JSON, no write); the process's writing thread makes the lines and appends
 * them. Entries are sealed in batches when the run yields to the event loop (or at `flush()`):
 * the writing thread then writes what is published and answers with the failures, which settle
 * the batch. At the process's exit, what the thread has not taken is written here, synchronously.
 */
export function traceStream(options: TraceStreamOptions): TraceStream {
  const { path, maxPending } = options;
  const control = new Int32Array(new SharedArrayBuffer(CONTROL_SLOTS * 4));
  /** Slabs the writing thread may not have read to the end, the first numbered `firstSlab`. */
  const slabs: SharedArrayBuffer[] = [];
  let firstSlab = 0;
  let written = 0;
  let dropped = 0;
  let stoppedBecause: string | undefined;
  let batch: Batch | undefined;
  let nextBatch = 1;
  const sealed = new Map<number, Batch>();
  /** Entries dropped before each sealed batch, reported with it. */
  const dropsOf = new Map<number, number>();
  /**
   * What the writing thread answered to a batch no one watches (only lines whose failure is not
   * reported): the thread writes all that is published when it answers, so its failures may be a
   * later batch's. Reported with the next batch that is watched.
   */
  let carried = { failures: [] as string[], lost: 0, drops: 0 };

  const failed = (reply: { failures: readonly string[]; lost: number }, drops: number): TraceWriteError | undefined => {
    const messages = [...reply.failures];
    if (drops > 0) messages.push(`${drops} event(s) were dropped: more than ${maxPending} were waiting for ${path}`);
    if (messages.length === 0) return undefined;
    return new TraceWriteError({ path, lostEvents: reply.lost + drops, message: messages.join('; ') });
  };

  const { thread, id } = traceThread({
    sealed(reply: ThreadReply) {
      const done = sealed.get(reply.batch);
      if (!done) return;
      sealed.delete(reply.batch);
      const answered = { failures: [...carried.failures, ...reply.failures], lost: carried.lost + reply.lost, drops: carried.drops + (dropsOf.get(reply.batch) ?? 0) };
      dropsOf.delete(reply.batch);
      carried = done.claimed ? { failures: [], lost: 0, drops: 0 } : answered;
      done.settle(done.claimed ? failed(answered, answered.drops) : undefined);
      if (sealed.size === 0 && batch === undefined && written === Atomics.load(control, Control.taken)) markUnwritten(unwritten, false);
    },
    stopped(message) {
      stoppedBecause = message;
      for (const done of sealed.values()) {
        thread.release();
        done.settle(new TraceWriteError({ path, lostEvents: written - Atomics.load(control, Control.taken), message: `events of ${path} were lost: ${message}` }));
      }
      sealed.clear();
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

  const seal = () => {
    const current = batch;
    if (current === undefined) return;
    batch = undefined;
    dropsOf.set(current.id, dropped);
    dropped = 0;
    if (stoppedBecause !== undefined) {
      current.settle(new TraceWriteError({ path, lostEvents: dropsOf.get(current.id) ?? 0, message: `events of ${path} were lost: ${stoppedBecause}` }));
      return;
    }
    sealed.set(current.id, current);
    thread.hold();
    thread.send({ type: 'seal', id, batch: current.id });
  };

  /** The batch's write for the bus to watch, from the first entry that may report it. */
  const claim = (reports: boolean): Promise<void> | undefined => {
    if (batch === undefined) {
      batch = openBatch(nextBatch++);
      markUnwritten(unwritten, true);
      setImmediate(seal);
    }
    if (batch.claimed || !reports) return undefined;
    batch.claimed = true;
    return batch.written;
  };

  /** Whether one more entry may wait for the disk (else it is counted dropped). */
  const admit = (): boolean => {
    if (stoppedBecause === undefined && written - Atomics.load(control, Control.taken) < maxPending) return true;
    dropped++;
    return false;
  };

  const unwritten: UnwrittenEvents = {
    async flush() {
      seal();
      await Promise.all([...sealed.values()].map((done) => done.written.catch(() => undefined)));
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
      const at = { slab: Atomics.load(control, Control.slab), offset: Atomics.load(control, Control.offset) };
      const reader = new SlabReader(slabs.slice(Math.max(0, at.slab - firstSlab)), at);
      const { failure } = drain(reader, control, options);
      if (failure) throw new Error(failure.message);
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
      return claim(true);
    },
    line(text, reports) {
      if (admit()) {
        writer.begin(EntryKind.line);
        writer.string(text);
        writer.end();
        written++;
      }
      return claim(reports);
    },
    flush: unwritten.flush,
  };
  closeWhenCollected(stream, thread, id);
  return stream;
}
