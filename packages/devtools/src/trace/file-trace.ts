import type { AgentBuilder, AgentEvents, Extension } from '@keel/core';
import { DevtoolsError } from '../errors/devtools-error';
import { TRACED_EVENT_NAMES, type TracedEvent } from './content-fields';
import { secretRedactor, secretsFromEnvironment } from './redact-secrets';
import { entryLine, eventLine, type LineOptions } from './trace-lines';
import { TraceWriter } from './trace-writer';

/** Options of {@link fileTrace}. */
export interface FileTraceOptions {
  /**
   * Write what the model was sent and wrote: the journal's messages and texts, raw outputs, tool
   * arguments and outputs, the answer, the feedback of re-asks, validation messages and paths,
   * error messages that may quote them. They may hold personal data: default `false`, and then the
   * file holds only Keel's own vocabulary (kinds, rule names, counts, token usage, ids you chose,
   * names of the tools your agents declare).
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
   * Lines held in memory while the file cannot be written (a full disk); beyond it, newer ones are
   * dropped (the run never waits), and how many is written to the file once it can be. Default 100,000.
   */
  readonly maxPendingEvents?: number;
}

/** The extension returned by {@link fileTrace}. */
export interface FileTrace extends Extension {
  /** The trace file, as given. */
  readonly path: string;
  /** Writes every line received so far now; settles when they are written or their failure reported (never rejects). */
  flush(): Promise<void>;
}

function checkOptions(path: unknown, options: FileTraceOptions): void {
  if (typeof path !== 'string' || path.trim() === '') throw new DevtoolsError({ problem: 'options', option: 'path', message: `must be a file path, got ${path === '' ? 'an empty string' : typeof path}` });
  if (path.includes('\0')) throw new DevtoolsError({ problem: 'options', option: 'path', message: 'must not contain a NUL character' });
  const { secrets, maxPendingEvents } = options;
  if (secrets !== undefined && (!Array.isArray(secrets) || secrets.some((secret) => typeof secret !== 'string' || secret.length < 8))) {
    throw new DevtoolsError({ problem: 'options', option: 'secrets', message: 'must be a list of strings of 8 characters or more (shorter ones would redact ordinary words)' });
  }
  if (maxPendingEvents !== undefined && !(Number.isInteger(maxPendingEvents) && maxPendingEvents > 0)) {
    throw new DevtoolsError({ problem: 'options', option: 'maxPendingEvents', message: `must be a positive integer, got ${String(maxPendingEvents)}` });
  }
}

/**
 * Appends every run of the agents it is attached to (`builder.use(fileTrace(path))`) to a
 * JSON-lines file, for `keel-devtools <path>`: each entry of the run's journal, once, as it is
 * written (`builder.onJournal`), so a resumed run adds its new entries and never a copy of the
 * old ones; and the few events no entry tells (the model a run started on, retries with their
 * rule and feedback, validation failures, repairs, waits, loops, errors). Attach it to agents
 * called as tools too: their runs nest under the tool call that ran them. Lines are batched on the
 * run's thread and appended whole (see `TraceWriter`), so runs, agents and processes writing to one
 * file never interleave inside a line; what waits when the process exits is written then. A failed
 * write never stops or changes a run: it is reported as the agent's `listener.error` event
 * (a `DevtoolsError`, `trace-write`). Model text only with `recordContent`; secrets never.
 */
export function fileTrace(path: string, options: FileTraceOptions = {}): FileTrace {
  checkOptions(path, options);
  const secrets = [...secretsFromEnvironment(process.env), ...(options.secrets ?? [])];
  const lines: LineOptions = { recordContent: options.recordContent ?? false, redact: secretRedactor(secrets), knownTools: new Set() };
  const writer = new TraceWriter({ path, maxPending: options.maxPendingEvents ?? 100_000 });
  const listen = <TOutput>(builder: AgentBuilder<TOutput>, event: TracedEvent): AgentBuilder<TOutput> =>
    builder.on(event, (payload) => writer.push(eventLine(event, payload as AgentEvents[typeof event], lines), event !== 'listener.error'));
  const extension = <TOutput>(builder: AgentBuilder<TOutput>): AgentBuilder<TOutput> =>
    TRACED_EVENT_NAMES.reduce(listen, builder.onJournal((entry) => writer.push(entryLine(entry, lines))));
  return Object.assign(extension, {
    path,
    flush: () => {
      writer.write();
      return Promise.resolve();
    },
  });
}
