import type { AgentBuilder, AgentEventName, AgentEvents, Extension } from '@keel/core';
import { DevtoolsOptionsError } from '../errors/devtools-options-error';
import { TraceWriteError } from '../errors/trace-write-error';
import { CONTENT_EVENTS, TRACED_EVENTS } from './content-fields';
import { fileAppender } from './file-appender';
import { secretRedactor, secretsFromEnvironment } from './redact-secrets';
import { traceLine } from './trace-line';

/** Options of {@link fileTrace}. */
export interface FileTraceOptions {
  /**
   * Write what the model was sent and wrote: each call's messages and answer (`model.content`),
   * the feedback of re-asks, validation messages and paths, rejected outputs, error messages that
   * may quote them. They may hold personal data: default `false`, and then the file holds only
   * Keel's own vocabulary (kinds, rule names, counts, token usage, ids you chose).
   */
  readonly recordContent?: boolean;
  /**
   * Strings never written (each replaced by `[redacted]`), beside credential shapes (vendor API
   * keys, bearer tokens, private keys) and the values of environment variables named like
   * secrets (`*_KEY`, `*_TOKEN`, `*_SECRET`, `*PASSWORD`), which are always replaced.
   * Each at least 8 characters.
   */
  readonly secrets?: readonly string[];
  /** Events held in memory while the disk is behind; beyond it, events are dropped and reported. Default 100,000. */
  readonly maxPendingEvents?: number;
}

/** The extension returned by {@link fileTrace}. */
export interface FileTrace extends Extension {
  /** The trace file, as given. */
  readonly path: string;
  /** Writes every event received so far now; settles when they are written or their failure reported (never rejects). */
  flush(): Promise<void>;
}

/** Events waiting for one append, and the promise of that append. */
interface Batch {
  /** Event names and payloads, alternating. */
  readonly items: unknown[];
  readonly written: Promise<void>;
  start(): void;
}

function checkOptions(path: unknown, options: FileTraceOptions): void {
  if (typeof path !== 'string' || path.trim() === '') throw new DevtoolsOptionsError({ option: 'path', message: `must be a file path, got ${path === '' ? 'an empty string' : typeof path}` });
  if (path.includes('\0')) throw new DevtoolsOptionsError({ option: 'path', message: 'must not contain a NUL character' });
  const { secrets, maxPendingEvents } = options;
  if (secrets !== undefined && (!Array.isArray(secrets) || secrets.some((secret) => typeof secret !== 'string' || secret.length < 8))) {
    throw new DevtoolsOptionsError({ option: 'secrets', message: 'must be a list of strings of 8 characters or more (shorter ones would redact ordinary words)' });
  }
  if (maxPendingEvents !== undefined && !(Number.isInteger(maxPendingEvents) && maxPendingEvents > 0)) {
    throw new DevtoolsOptionsError({ option: 'maxPendingEvents', message: `must be a positive integer, got ${String(maxPendingEvents)}` });
  }
}

/**
 * Appends every event of every run of the agents it is attached to (`builder.use(fileTrace(path))`)
 * to a JSON-lines file, one event a line (`{"event":…,"payload":…}`), for `keel-devtools <path>`.
 * The run never waits for the disk: events are kept (payloads are frozen) and written together
 * once the run yields to the event loop, in one append of whole lines, so concurrent runs, agents
 * and processes writing to one file never interleave inside a line. A failed write never stops or
 * changes a run: it is reported as the agent's `listener.error` event (`TraceWriteError`), and the
 * events of that write are lost. Model text only with `recordContent`; secrets never.
 */
export function fileTrace(path: string, options: FileTraceOptions = {}): FileTrace {
  checkOptions(path, options);
  const recordContent = options.recordContent ?? false;
  const maxPending = options.maxPendingEvents ?? 100_000;
  const redact = secretRedactor([...secretsFromEnvironment(process.env), ...(options.secrets ?? [])]);
  const file = fileAppender(path);
  let current: Batch | undefined;
  /** Batches started and not yet settled: what `flush()` waits for. */
  const writing = new Set<Promise<void>>();
  let pending = 0;
  let dropped = 0;

  const write = async (items: unknown[]) => {
    let lines = '';
    for (let index = 0; index < items.length; index += 2) lines += traceLine(items[index] as AgentEventName, items[index + 1] as AgentEvents[AgentEventName], recordContent);
    // One scan of the whole batch: no secret shape spans a line (newlines inside strings are escaped).
    const text = redact(lines);
    pending -= items.length / 2;
    const lost = dropped;
    dropped = 0;
    try {
      await file.append(text);
    } catch (error) {
      throw new TraceWriteError({ path, lostEvents: items.length / 2 + lost, message: `${items.length / 2} event(s) could not be written to ${path}: ${error instanceof Error ? error.message : String(error)}`, cause: error });
    }
    if (lost > 0) throw new TraceWriteError({ path, lostEvents: lost, message: `${lost} event(s) were dropped: more than ${maxPending} were waiting for ${path}` });
  };

  const newBatch = (): Batch => {
    const items: unknown[] = [];
    let begin!: () => void;
    const started = new Promise<void>((resolve) => (begin = resolve));
    const written = started.then(() => write(items));
    const settled = written.then(
      () => void writing.delete(settled),
      () => void writing.delete(settled),
    );
    writing.add(settled);
    const batch: Batch = {
      items,
      written,
      start() {
        if (current === batch) current = undefined;
        begin();
      },
    };
    setImmediate(batch.start);
    return batch;
  };

  /** Keeps one event; the first of a batch returns the batch's write, so the bus reports its failure. */
  const keep = (event: AgentEventName, payload: AgentEvents[AgentEventName]): Promise<void> | undefined => {
    if (pending >= maxPending) {
      dropped++;
      return undefined;
    }
    pending++;
    if (current !== undefined) {
      current.items.push(event, payload);
      return undefined;
    }
    current = newBatch();
    current.items.push(event, payload);
    return current.written;
  };

  const events = recordContent ? TRACED_EVENTS : TRACED_EVENTS.filter((name) => !CONTENT_EVENTS.includes(name));
  const extension = <TOutput>(builder: AgentBuilder<TOutput>): AgentBuilder<TOutput> =>
    events.reduce((next, name) => next.on(name, (payload) => keep(name, payload)), builder);
  return Object.assign(extension, {
    path,
    async flush() {
      current?.start();
      await Promise.all(writing);
      await file.idle();
    },
  });
}
