import { keelError } from '@keel/core/internal';

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

/** Constructor fields of {@link CassetteMissError}. */
export interface CassetteMissErrorOptions {
  readonly path: string;
  readonly mode: 'replay' | 'auto';
  /** `generate` or `stream`. */
  readonly call: string;
  /** The closest recorded request and where it differs; absent when the cassette records nothing. */
  readonly difference?: CassetteDifference;
  /** Set when the very same request was recorded, but fewer times than it is now asked. */
  readonly exhausted?: { readonly recorded: number };
}

function describe({ path, call, difference, exhausted }: CassetteMissErrorOptions): string {
  const head = `No recorded ${call} call in the cassette ${path} answers this request`;
  if (exhausted) return `${head}: the same request was recorded ${exhausted.recorded} time${exhausted.recorded === 1 ? '' : 's'} and is now asked once more (identical requests replay in the order they were recorded)`;
  if (!difference) return `${head}: the cassette records no calls (record it with mode 'record' or 'auto')`;
  const where = difference.role === undefined ? difference.path : `${difference.path} (${difference.role})`;
  return `${head}. The closest recording (#${difference.recording + 1}) first differs at ${where}:\n  recorded:  ${difference.recorded}\n  requested: ${difference.requested}`;
}

/**
 * A cassette was asked a request it has no recording for (mode `replay`; in `auto` only when the
 * recording itself cannot be made). The message names the first place, usually a message, where
 * the request differs from the closest recorded request. Not retryable: the same request misses
 * again.
 */
export class CassetteMissError extends keelError('CassetteMissError', { retryable: false, errorKind: 'bad-request' }) {
  /** The cassette file. */
  readonly path: string;
  /** `generate` or `stream`. */
  readonly call: string;
  /** The closest recorded request and where this one differs. */
  readonly difference?: CassetteDifference;

  constructor(options: CassetteMissErrorOptions) {
    super({ message: describe(options) });
    this.path = options.path;
    this.call = options.call;
    if (options.difference !== undefined) this.difference = options.difference;
  }
}
