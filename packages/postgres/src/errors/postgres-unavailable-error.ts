import { keelError } from '@keel/reliability/internal';

/**
 * PostgreSQL did not answer in time, could not be reached, or refused for a reason that passes (a
 * server shutting down or starting, too many connections, a serialization failure or deadlock).
 * Retryable: the server may come back.
 */
export class PostgresUnavailableError extends keelError('PostgresUnavailableError', { retryable: true }) {
  /** What was being done, e.g. `run store append`, `memory load`. */
  readonly operation: string;

  constructor({ operation, message, cause }: { operation: string; message: string; cause?: unknown }) {
    super({ message: `PostgreSQL unavailable during ${operation}: ${message}`, cause });
    this.operation = operation;
  }
}
