import type { AgentBuilder, Extension } from '@keel/core';
import { DevtoolsOptionsError } from '../errors/devtools-options-error';
import { CONTENT_EVENTS, RECORDED_EVENTS, TRACED_EVENTS } from './content-fields';
import { secretRedactor, secretsFromEnvironment } from './redact-secrets';
import { jsonQuoter, traceLineWriter } from './trace-line';
import { traceStream } from './trace-stream';

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
   * Lines held in memory while the disk is behind (runs' records and events not written yet);
   * beyond it, newer ones are dropped (the run never waits) and the drop is reported. Default 100,000.
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
 * The events written as they happen: what a run's record does not hold (why a call was retried,
 * the feedback, the rule, repairs, loops, suspensions, failures, compactions). Each is rare: a
 * run that goes well emits none of them. With content, also each call's messages and answer.
 */
const RARE_EVENTS = TRACED_EVENTS.filter((name) => !RECORDED_EVENTS.includes(name) && !CONTENT_EVENTS.includes(name));

/**
 * Appends every run of the agents it is attached to (`builder.use(fileTrace(path))`) to a
 * JSON-lines file, for `keel-devtools <path>`: one `run.record` line when a run ends (its usage,
 * its own model calls, steps and tool calls), and before it, as they happen, a line for each
 * event its record does not tell (retries and their feedback and rule, validation failures,
 * repairs, loops, suspensions and resumes, errors). Attach it to agents called as tools too: their
 * runs nest under the tool call that ran them. The run's own thread only copies the record into
 * shared memory (no JSON, no write); a thread of the process makes the lines and appends them in
 * whole lines, so concurrent runs, agents and processes writing to one file never interleave
 * inside a line. What is waiting when the process ends is written then (`beforeExit`, and
 * synchronously on `exit`). A failed write never stops or changes a run: it is reported as the
 * agent's `listener.error` event (`TraceWriteError`), and the lines of that write are lost. Model
 * text only with `recordContent`; secrets never.
 */
export function fileTrace(path: string, options: FileTraceOptions = {}): FileTrace {
  checkOptions(path, options);
  const recordContent = options.recordContent ?? false;
  const secrets = [...secretsFromEnvironment(process.env), ...(options.secrets ?? [])];
  const redact = secretRedactor(secrets);
  const lineOf = traceLineWriter({ recordContent, redact });
  const stream = traceStream({ path, recordContent, quote: jsonQuoter(redact), secrets, maxPending: options.maxPendingEvents ?? 100_000 });
  const events = recordContent ? [...RARE_EVENTS, ...CONTENT_EVENTS] : RARE_EVENTS;
  const extension = <TOutput>(builder: AgentBuilder<TOutput>): AgentBuilder<TOutput> =>
    events.reduce((next, name) => next.on(name, (payload) => stream.line(lineOf(name, payload), name !== 'listener.error')), builder.onRecord((run) => stream.record(run)));
  return Object.assign(extension, { path, flush: stream.flush });
}
