import type { RecordedRun } from '@keel/core';
import { writeRecord } from './record-entry';
import { CONTROL_SLOTS, Control, type DrainTarget, drain, Lock } from './trace-drain';
import { EntryKind, SlabReader, SlabWriter } from './trace-slabs';

/**
 * A trace's side of its shared memory, on the run's thread: the slabs it fills (kept until the
 * writing thread has read past them, for a write here at exit), its control memory, and how many
 * entries it has published.
 */
export class TraceMemory {
  readonly control = new Int32Array(new SharedArrayBuffer(CONTROL_SLOTS * 4));
  readonly writer: SlabWriter;
  /** Slabs the writing thread may not have read to the end, the first numbered `firstSlab`. */
  private readonly slabs: SharedArrayBuffer[] = [];
  private firstSlab = 0;
  private written = 0;

  /** `onSlab` hands each new slab to the writing thread. */
  constructor(onSlab: (slab: SharedArrayBuffer) => void) {
    this.writer = new SlabWriter((slab) => {
      const read = Atomics.load(this.control, Control.slab);
      while (this.firstSlab < read && this.slabs.length > 0) {
        this.slabs.shift();
        this.firstSlab++;
      }
      this.slabs.push(slab);
      onSlab(slab);
    });
    this.slabs.push(this.writer.first);
  }

  /** Entries published and not yet taken by whoever writes them. */
  pending(): number {
    return this.written - Atomics.load(this.control, Control.taken);
  }

  record(run: RecordedRun, content: boolean): void {
    this.writer.begin(EntryKind.record);
    writeRecord(this.writer, run, content);
    this.writer.end();
    this.written++;
  }

  line(text: string): void {
    this.writer.begin(EntryKind.line);
    this.writer.string(text);
    this.writer.end();
    this.written++;
  }

  /** Closes the lock for good, whoever held it: the writing thread is gone and will not write again. */
  closeLock(): void {
    Atomics.store(this.control, Control.lock, Lock.closed);
  }

  /** Takes the lock for good, waiting up to `waitMs` while the writing thread is in a write; false when it still is. */
  takeLock(waitMs: number): boolean {
    const deadline = Date.now() + waitMs;
    while (Atomics.compareExchange(this.control, Control.lock, Lock.free, Lock.closed) === Lock.held) {
      if (Atomics.wait(this.control, Control.lock, Lock.held, Math.max(0, deadline - Date.now())) === 'timed-out') return false;
    }
    return true;
  }

  /** Writes here, synchronously, what the writing thread has not taken (the lock being closed). */
  writeHere(target: DrainTarget): { failures: string[]; lost: number } {
    const at = { slab: Atomics.load(this.control, Control.slab), offset: Atomics.load(this.control, Control.offset) };
    const { failure } = drain(new SlabReader(this.slabs.slice(Math.max(0, at.slab - this.firstSlab)), at), this.control, target);
    return failure ? { failures: [failure.message], lost: failure.lost } : { failures: [], lost: 0 };
  }
}
