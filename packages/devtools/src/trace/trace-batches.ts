import type { AgentEventName, AgentEvents } from '@keel/core';
import { TraceWriteError } from '../errors/trace-write-error';
import { markUnwritten, type UnwrittenEvents } from './exit-hooks';
import { type FileAppender, fileAppender } from './file-appender';

/** Events a batch is written at even before the run yields to the event loop. */
const BATCH_EVENTS = 4096;

/** Options of {@link traceBatches}. */
export interface TraceBatchesOptions {
  readonly path: string;
  /** An event's line (see `traceLineWriter`). */
  readonly lineOf: (event: AgentEventName, payload: AgentEvents[AgentEventName]) => string;
  /** Events held while the disk is behind (kept, or being written); beyond it, newer ones are dropped and reported. */
  readonly maxPending: number;
}

/** What `fileTrace`'s listeners call. */
export interface TraceBatches {
  /** Keeps one event; may return a write for the bus to watch (its failure is the agent's `listener.error`). */
  keep(event: AgentEventName, payload: AgentEvents[AgentEventName]): Promise<void> | undefined;
  /** Writes what waits now; settles when every write started so far has settled (never rejects). */
  flush(): Promise<void>;
}

/** A batch of kept events waiting for its write; see `claim` in {@link traceBatches}. */
interface Batch {
  readonly written: Promise<void>;
  readonly settle: (error?: unknown) => void;
  claimed: boolean;
}

/** A batch whose write settles when `settle` is called; a failure no listener claimed fails quietly, never as an unhandled rejection. */
function openBatch(): Batch {
  let settle!: (error?: unknown) => void;
  const written = new Promise<void>((resolve, reject) => (settle = (error) => (error === undefined ? resolve() : reject(error))));
  written.catch(() => undefined);
  return { written, settle, claimed: false };
}

/** Appends the lines of `count` events; a failure is a {@link TraceWriteError} that counts them (and `lost` dropped before them) as lost. */
async function appendLines(file: FileAppender, path: string, lines: string, count: number, lost: number): Promise<void> {
  try {
    await file.append(lines);
  } catch (error) {
    throw new TraceWriteError({ path, lostEvents: count + lost, message: `${count} event(s) could not be written to ${path}: ${error instanceof Error ? error.message : String(error)}`, cause: error });
  }
}

/**
 * The events of a trace, kept as they come (a listener does nothing else: payloads are frozen)
 * and written in batches: a batch is serialised and appended once the run yields to the event
 * loop, or at once when it holds {@link BATCH_EVENTS} events, and what waits at the process's
 * end is written then (see `markUnwritten`).
 */
export function traceBatches({ path, lineOf, maxPending }: TraceBatchesOptions): TraceBatches {
  const file = fileAppender(path);
  /** Event names and payloads, alternating, not handed to a write yet. */
  let items: unknown[] = [];
  /**
   * The write of `items`, set while they wait. It is returned to the bus by the listener of the
   * batch's first event other than `listener.error` (`claimed`), so that agent reports a failed
   * write; the failure of a batch holding only `listener.error` events is not reported (it would
   * report itself without end).
   */
  let batch: Batch | undefined;
  /** Writes started and not yet settled: what `flush()` waits for. */
  const writing = new Set<Promise<void>>();
  let dropped = 0;
  /** Events handed to writes that have not finished: with `items`, what the disk is behind by. */
  let inFlight = 0;

  /** The lines of `taken` (names and payloads, alternating). */
  const linesOf = (taken: unknown[]) => {
    let lines = '';
    for (let index = 0; index < taken.length; index += 2) lines += lineOf(taken[index] as AgentEventName, taken[index + 1] as AgentEvents[AgentEventName]);
    return lines;
  };

  const take = () => {
    const taken = items;
    const lost = dropped;
    items = [];
    dropped = 0;
    markUnwritten(unwritten, false);
    return { taken, lost, count: taken.length / 2 };
  };

  const write = async (): Promise<void> => {
    const { taken, lost, count } = take();
    if (count > 0) {
      inFlight += count;
      try {
        await appendLines(file, path, linesOf(taken), count, lost);
      } finally {
        inFlight -= count;
      }
    }
    if (lost > 0) throw new TraceWriteError({ path, lostEvents: lost, message: `${lost} event(s) were dropped: more than ${maxPending} were waiting for ${path}` });
  };

  const start = () => {
    const current = batch;
    if (current === undefined) return;
    batch = undefined;
    const done = write().then(
      () => current.settle(),
      (error: unknown) => current.settle(error),
    );
    writing.add(done);
    void done.then(() => writing.delete(done));
  };

  const newBatch = () => {
    markUnwritten(unwritten, true);
    setImmediate(start);
    return openBatch();
  };

  /** The batch's write for the bus to watch, from the first event that may report it. */
  const claim = (event: AgentEventName): Promise<void> | undefined => {
    batch ??= newBatch();
    if (batch.claimed || event === 'listener.error') return undefined;
    batch.claimed = true;
    return batch.written;
  };

  /** Keeps one event (or counts it dropped when too many wait); may return the batch's write (see {@link claim}). */
  const keep = (event: AgentEventName, payload: AgentEvents[AgentEventName]): Promise<void> | undefined => {
    if (items.length / 2 + inFlight >= maxPending) dropped++;
    else {
      items.push(event, payload);
      // Runs that never yield to the event loop (instant models and tools) still get written as they go.
      if (items.length === BATCH_EVENTS * 2) queueMicrotask(start);
    }
    return claim(event);
  };

  const flush = async (): Promise<void> => {
    start();
    await Promise.all(writing);
    await file.idle();
  };
  const unwritten: UnwrittenEvents = {
    flush,
    writeNow() {
      const { taken, count } = take();
      if (count > 0) file.appendNow(linesOf(taken));
    },
  };

  return { keep, flush };
}
