import { TraceWriteError } from '../errors/trace-write-error';
import type { SealedReply } from './trace-messages';

/** A batch of a trace's entries waiting for its write. */
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

/** What {@link TraceBatches} asks of its trace. */
export interface BatchHost {
  readonly path: string;
  readonly maxPending: number;
  /** A batch was opened: seal it once the run yields (`setImmediate`), and mark the trace as holding lines. */
  opened(): void;
  /** Has what is published written, and batch `id` answered (by the writing thread, or here when it is gone). */
  sealed(id: number): void;
}

/**
 * A trace's entries in batches: a batch opens with the first entry after the last was sealed, is
 * sealed when the run yields, and settles when the writing thread answers (rejected with a
 * {@link TraceWriteError} when lines were lost or dropped). Its promise is handed to the bus once,
 * by the first entry that may report it, so a failed write is the agent's `listener.error`.
 */
export class TraceBatches {
  private current: Batch | undefined;
  private next = 1;
  /** Sealed batches waiting for the thread's answer, with the entries dropped before each. */
  private readonly waiting = new Map<number, { readonly batch: Batch; readonly drops: number }>();
  private dropped = 0;
  /**
   * What the writing thread answered to a batch no one watches (only lines whose failure is not
   * reported): the thread writes all that is published when it answers, so its failures may be a
   * later batch's. Reported with the next batch that is watched.
   */
  private carried = { failures: [] as string[], lost: 0, drops: 0 };

  constructor(private readonly host: BatchHost) {}

  /** Whether a batch is open or waits for its answer. */
  get busy(): boolean {
    return this.current !== undefined || this.waiting.size > 0;
  }

  /** Counts an entry dropped (too many waiting): reported with the batch. */
  drop(): void {
    this.dropped++;
  }

  /** The open batch's promise for the bus to watch, from the first entry that may report it (`reports`). */
  claim(reports: boolean): Promise<void> | undefined {
    if (this.current === undefined) {
      this.current = openBatch(this.next++);
      this.host.opened();
    }
    if (this.current.claimed || !reports) return undefined;
    this.current.claimed = true;
    return this.current.written;
  }

  /** Seals the open batch: the host has it written and answers it (see {@link answered}). */
  seal(): void {
    const batch = this.current;
    if (batch === undefined) return;
    this.current = undefined;
    this.waiting.set(batch.id, { batch, drops: this.dropped });
    this.dropped = 0;
    this.host.sealed(batch.id);
  }

  /** The writing thread's answer: settles its batch; false when it answers none that waits. */
  answered(reply: SealedReply): boolean {
    const waiting = this.waiting.get(reply.batch);
    if (!waiting) return false;
    this.waiting.delete(reply.batch);
    const answer = { failures: [...this.carried.failures, ...reply.failures], lost: this.carried.lost + reply.lost, drops: this.carried.drops + waiting.drops };
    if (!waiting.batch.claimed) {
      this.carried = answer;
      waiting.batch.settle();
      return true;
    }
    this.carried = { failures: [], lost: 0, drops: 0 };
    const messages = answer.failures;
    if (answer.drops > 0) messages.push(`${answer.drops} event(s) were dropped: more than ${this.host.maxPending} were waiting for ${this.host.path}`);
    waiting.batch.settle(messages.length === 0 ? undefined : this.lost(answer.lost + answer.drops, messages.join('; ')));
    return true;
  }

  /** Answers every batch that waits (the writing thread is gone and will not): the first with `failures`. Returns how many waited. */
  answerAll(failures: readonly string[], lost: number): number {
    const ids = [...this.waiting.keys()];
    ids.forEach((batch, index) => this.answered({ type: 'sealed', id: 0, batch, failures: index === 0 ? failures : [], lost: index === 0 ? lost : 0 }));
    return ids.length;
  }

  /** Settles when every sealed batch has (never rejects). */
  async settled(): Promise<void> {
    await Promise.all([...this.waiting.values()].map(({ batch }) => batch.written.catch(() => undefined)));
  }

  private lost(count: number, message: string): TraceWriteError {
    return new TraceWriteError({ path: this.host.path, lostEvents: count, message });
  }
}
