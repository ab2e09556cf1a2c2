import type { AgentBuilder, Extension } from '@keel/core';
import { DevtoolsOptionsError } from '../errors/devtools-options-error';
import { CONTENT_EVENTS, TRACED_EVENTS } from './content-fields';
import { secretRedactor, secretsFromEnvironment } from './redact-secrets';
import { traceBatches } from './trace-batches';
import { traceLineWriter } from './trace-line';

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
  /**
   * Events held in memory while the disk is behind (kept, or being written); beyond it, newer
   * events are dropped (the run never waits) and the drop is reported. Default 100,000.
   */
  readonly maxPendingEvents?: number;
}

/** The extension returned by {@link fileTrace}. */
export interface FileTrace extends Extension {
  /** The trace file, as given. */
  readonly path: string;
  /** Writes every event received so far now; settles when they are written or their failure reported (never rejects). */
  flush(): Promise<void>;
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
 * The run never waits for the disk: a listener only keeps the event (payloads are frozen), and
 * the events kept are serialised and written together once the run yields to the event loop, in
 * one append of whole lines, so concurrent runs, agents and processes writing to one file never
 * interleave inside a line. What is still waiting when the process ends is written then
 * (`beforeExit`, and synchronously on `exit`). A failed write never stops or changes a run: it is
 * reported as the agent's `listener.error` event (`TraceWriteError`), and the events of that
 * write are lost. Model text only with `recordContent`; secrets never.
 */
export function fileTrace(path: string, options: FileTraceOptions = {}): FileTrace {
  checkOptions(path, options);
  const recordContent = options.recordContent ?? false;
  const maxPending = options.maxPendingEvents ?? 100_000;
  const lineOf = traceLineWriter({ recordContent, redact: secretRedactor([...secretsFromEnvironment(process.env), ...(options.secrets ?? [])]) });
  const { keep, flush } = traceBatches({ path, lineOf, maxPending });
  const events = recordContent ? TRACED_EVENTS : TRACED_EVENTS.filter((name) => !CONTENT_EVENTS.includes(name));
  const extension = <TOutput>(builder: AgentBuilder<TOutput>): AgentBuilder<TOutput> =>
    events.reduce((next, name) => next.on(name, (payload) => keep(name, payload)), builder);
  return Object.assign(extension, { path, flush });
}
