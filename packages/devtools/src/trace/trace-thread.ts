import { createRequire } from 'node:module';
import { dirname, extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { SealedReply, ThreadMessage, ThreadReply } from './trace-messages';

/** What a trace hears from the writing thread: its seals answered, or the thread gone. */
export interface ThreadListener {
  sealed(reply: SealedReply): void;
  /** Slabs the thread has read to their end, to fill again. */
  spare(slabs: readonly SharedArrayBuffer[]): void;
  /** The thread stopped (it failed): nothing more of this trace will be written. */
  stopped(message: string): void;
}

/** The writing thread of this process, as traces use it. */
export interface TraceThread {
  send(message: ThreadMessage): void;
  /** Keeps the process alive until the answer of the seal about to be sent (one hold per seal, let go when it is answered). */
  hold(): void;
  /** Lets go of a hold whose answer will never come (the thread stopped). */
  release(): void;
}

/**
 * A worker on `trace-worker` beside this module: the built `.js`/`.cjs` file, or, when Keel runs
 * from its TypeScript sources (its own tests), the `.ts` file through the `tsx` loader.
 */
function startWorker(): Worker {
  const here = fileURLToPath(import.meta.url);
  const extension = extname(here);
  const file = join(dirname(here), `trace-worker${extension}`);
  if (extension !== '.ts') return new Worker(file);
  const loader = createRequire(here).resolve('tsx/cjs/api');
  return new Worker(`require(${JSON.stringify(loader)}).register(); require(${JSON.stringify(file)});`, { eval: true });
}

let current: TraceThread | undefined;
const listeners = new Map<number, ThreadListener>();
let nextId = 1;

/** The process's writing thread, started on first use, and an id for a new trace that listens to it. */
export function traceThread(listener: ThreadListener): { thread: TraceThread; id: number } {
  const id = nextId++;
  listeners.set(id, listener);
  current ??= open();
  return { thread: current, id };
}

/** How many traces the writing thread serves: each one made and not yet collected (and let go). */
export function servedTraces(): number {
  return listeners.size;
}

/** Traces no longer referenced: the writing thread writes what each published and lets it go, then so does its listener. */
const collected = new FinalizationRegistry<{ thread: TraceThread; id: number }>(({ thread, id }) => thread.send({ type: 'close', id }));

/**
 * Lets trace `id` go once `owner` (what the trace's users hold, never referenced by its listener)
 * is collected: a trace made for each task does not hold its memory for the life of the process.
 */
export function closeWhenCollected(owner: object, thread: TraceThread, id: number): void {
  collected.register(owner, { thread, id });
}

function open(): TraceThread {
  const worker = startWorker();
  let holds = 0;
  const thread: TraceThread = {
    send: (message) => worker.postMessage(message),
    hold() {
      if (holds++ === 0) worker.ref();
    },
    release() {
      if (--holds === 0) worker.unref();
    },
  };
  worker.on('message', (reply: ThreadReply) => {
    if (reply.type === 'closed') {
      listeners.delete(reply.id);
      return;
    }
    const listener = listeners.get(reply.id);
    if (reply.type === 'spare') {
      listener?.spare(reply.slabs);
      return;
    }
    // Here, not in the listener: a seal sent after its trace was let go is answered too.
    thread.release();
    listener?.sealed(reply);
  });
  const stop = (message: string) => {
    if (current === thread) current = undefined;
    for (const listener of listeners.values()) listener.stopped(message);
    listeners.clear();
  };
  worker.on('error', (error) => stop(`the thread writing traces failed: ${error.message}`));
  worker.on('exit', (code) => stop(`the thread writing traces stopped (exit code ${code})`));
  // After the listeners: adding a 'message' listener refs the worker again.
  worker.unref();
  return thread;
}
