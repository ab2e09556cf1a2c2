import { keelError } from '@keel/core/internal';

/**
 * Events could not be written to the trace file (a missing permission, a full disk, a path that
 * is a directory), or were dropped because writing fell too far behind. The run goes on unchanged:
 * the failure is reported as the agent's `listener.error` event, with this error's name and message.
 */
export class TraceWriteError extends keelError('TraceWriteError', { retryable: true }) {
  /** The trace file. */
  readonly path: string;
  /** Events lost: the batch that failed, or the events dropped while too many were waiting. */
  readonly lostEvents: number;

  constructor({ path, lostEvents, message, cause }: { path: string; lostEvents: number; message: string; cause?: unknown }) {
    super({ message, cause });
    this.path = path;
    this.lostEvents = lostEvents;
  }
}
