import { keelError } from '@keel/core/internal';

/**
 * Why a cassette cannot answer: `unrecorded`, it was asked a request it has no recording for
 * (mode `replay`; in `auto` only when the recording itself cannot be made); or its file cannot be
 * used: `missing` (replay of a file that does not exist), `unreadable` (the file system refused),
 * `invalid-json`, `invalid-format` (JSON, but not a cassette: a hand edit went wrong), `version`
 * (a cassette format this version does not read), `locked` (another writer held the file's lock
 * too long), `unwritable`.
 */
export type CassetteProblem = 'unrecorded' | 'missing' | 'unreadable' | 'invalid-json' | 'invalid-format' | 'version' | 'locked' | 'unwritable';

/** Where a request parts from the closest recorded one. */
export interface CassetteDifference {
  /** 0-based index of the closest recording in the cassette file. */
  readonly recording: number;
  /** What differs: `messages[2]`, `system`, `tools`, `model`, `call` (generate or stream)... */
  readonly path: string;
  /** The message's role, when a message differs. */
  readonly role?: string;
  /** The recorded value there, as JSON (cut short when long); `(none)` when the recording has nothing there. */
  readonly recorded: string;
  /** The requested value there, as JSON (cut short when long); `(none)` when the request has nothing there. */
  readonly requested: string;
}

/** Constructor fields of a {@link CassetteError} `unrecorded`. */
interface UnrecordedOptions {
  readonly problem: 'unrecorded';
  readonly path: string;
  readonly mode: 'replay' | 'auto';
  /** `generate` or `stream`. */
  readonly call: string;
  /** The closest recorded request and where it differs; absent when the cassette records nothing. */
  readonly difference?: CassetteDifference;
  /** Set when the very same request was recorded, but fewer times than it is now asked. */
  readonly exhausted?: { readonly recorded: number };
}

/** Constructor fields of a {@link CassetteError} about its file. */
interface FileOptions {
  readonly problem: Exclude<CassetteProblem, 'unrecorded'>;
  readonly path: string;
  /** What is wrong with the file, for the message. */
  readonly detail: string;
  readonly cause?: unknown;
}

function describeUnrecorded({ path, call, difference, exhausted }: UnrecordedOptions): string {
  const head = `No recorded ${call} call in the cassette ${path} answers this request`;
  if (exhausted) return `${head}: the same request was recorded ${exhausted.recorded} time${exhausted.recorded === 1 ? '' : 's'} and is now asked once more (identical requests replay in the order they were recorded)`;
  if (!difference) return `${head}: the cassette records no calls (record it with mode 'record' or 'auto')`;
  const where = difference.role === undefined ? difference.path : `${difference.path} (${difference.role})`;
  return `${head}. The closest recording (#${difference.recording + 1}) first differs at ${where}:\n  recorded:  ${difference.recorded}\n  requested: ${difference.requested}`;
}

/**
 * A cassette cannot answer, as its `problem` says. For `unrecorded`, the message names the first
 * place, usually a message, where the request differs from the closest recorded request (also in
 * `difference`). Not retryable: the same request fails again.
 */
export class CassetteError extends keelError('CassetteError', { retryable: false, errorKind: 'bad-request' }) {
  readonly problem: CassetteProblem;
  /** The cassette file. */
  readonly path: string;
  /** `generate` or `stream` (`unrecorded`). */
  readonly call?: string;
  /** The closest recorded request and where this one differs (`unrecorded`). */
  readonly difference?: CassetteDifference;

  constructor(options: UnrecordedOptions | FileOptions) {
    if (options.problem === 'unrecorded') {
      super({ message: describeUnrecorded(options) });
      this.call = options.call;
      if (options.difference !== undefined) this.difference = options.difference;
    } else {
      super({ message: `Cassette ${options.path}: ${options.detail}`, cause: options.cause });
    }
    this.problem = options.problem;
    this.path = options.path;
  }
}
