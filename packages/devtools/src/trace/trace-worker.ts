/**
 * The thread that writes trace files: it reads what each trace's runs put in shared memory,
 * makes the lines (records into JSON, secrets replaced) and appends them, so the runs' own thread
 * never serialises nor writes. Started by `traceThread()`; every trace of the process shares it.
 */
import { parentPort } from 'node:worker_threads';
import { secretRedactor } from './redact-secrets';
import { Control, type DrainTarget, drain, Lock } from './trace-drain';
import type { SealedReply, ThreadMessage, ThreadReply } from './trace-messages';
import { SlabReader } from './trace-slabs';
import { jsonQuoter } from './trace-line';

/** How often published entries are written when no trace asks: what the viewer lags behind by. */
const POLL_MS = 25;

interface Stream {
  readonly id: number;
  readonly reader: SlabReader;
  readonly control: Int32Array;
  readonly target: DrainTarget;
  /** Failures since the last seal: reported with the next one. */
  failures: string[];
  lost: number;
}

const streams = new Map<number, Stream>();
const port = parentPort;

/** Writes what `stream` has published, unless the process is writing it itself at exit. */
function write(stream: Stream): void {
  if (Atomics.compareExchange(stream.control, Control.lock, Lock.free, Lock.held) !== Lock.free) return;
  try {
    const { failure } = drain(stream.reader, stream.control, stream.target);
    if (failure) {
      stream.failures.push(failure.message);
      stream.lost += failure.lost;
    }
    const slabs = stream.reader.release();
    if (slabs.length > 0) port?.postMessage({ type: 'spare', id: stream.id, slabs } satisfies ThreadReply);
  } finally {
    Atomics.compareExchange(stream.control, Control.lock, Lock.held, Lock.free);
    Atomics.notify(stream.control, Control.lock);
  }
}

function receive(message: ThreadMessage): void {
  switch (message.type) {
    case 'open': {
      const reader = new SlabReader([message.slab]);
      const target = { path: message.path, quote: jsonQuoter(secretRedactor(message.secrets)) };
      streams.set(message.id, { id: message.id, reader, control: new Int32Array(message.control), target, failures: [], lost: 0 });
      return;
    }
    case 'slab':
      streams.get(message.id)?.reader.add(message.slab);
      return;
    case 'seal': {
      const stream = streams.get(message.id);
      if (stream) write(stream);
      const reply: SealedReply = { type: 'sealed', id: message.id, batch: message.batch, failures: stream?.failures ?? [], lost: stream?.lost ?? 0 };
      if (stream) {
        stream.failures = [];
        stream.lost = 0;
      }
      port?.postMessage(reply);
      return;
    }
    case 'close': {
      const stream = streams.get(message.id);
      if (stream) write(stream);
      streams.delete(message.id);
      const closed: ThreadReply = { type: 'closed', id: message.id };
      port?.postMessage(closed);
      return;
    }
  }
}

if (port) {
  port.on('message', receive);
  setInterval(() => {
    for (const stream of streams.values()) write(stream);
  }, POLL_MS);
}
