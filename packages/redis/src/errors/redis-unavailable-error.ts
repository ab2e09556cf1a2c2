import { keelError } from '@keel/reliability/internal';

/** Redis did not answer in time or refused a command. Retryable: the server may come back. */
export class RedisUnavailableError extends keelError('RedisUnavailableError', { retryable: true }) {
  /** What was being done, e.g. `shared-budget read`, `memory append`. */
  readonly operation: string;

  constructor({ operation, message, cause }: { operation: string; message: string; cause?: unknown }) {
    super({ message: `Redis unavailable during ${operation}: ${message}`, cause });
    this.operation = operation;
  }
}
