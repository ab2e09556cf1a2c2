const marker = Symbol.for('keel.error.TraceWriteError');

/**
 * Events could not be written to the trace file (a missing permission, a full disk, a path that
 * is a directory), or were dropped because writing fell too far behind. The run goes on unchanged:
 * the failure is reported as the agent's `listener.error` event, with this error's name and message.
 */
export class TraceWriteError extends Error {
  private readonly [marker] = true;
  override readonly name = 'TraceWriteError';
  /** A later write may succeed (the disk may have room again). */
  readonly retryable = true;
  /** The trace file. */
  readonly path: string;
  /** Events lost: the batch that failed, or the events dropped while too many were waiting. */
  readonly lostEvents: number;

  constructor({ path, lostEvents, message, cause }: { path: string; lostEvents: number; message: string; cause?: unknown }) {
    super(message, cause === undefined ? undefined : { cause });
    this.path = path;
    this.lostEvents = lostEvents;
  }

  static isInstance(value: unknown): value is TraceWriteError {
    return typeof value === 'object' && value !== null && (value as { [marker]?: unknown })[marker] === true;
  }
}
