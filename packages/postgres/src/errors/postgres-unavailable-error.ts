import { KeelError } from '@keel/reliability';
import { hasMarker } from '@keel/reliability/internal';

const marker = Symbol.for('keel.error.PostgresUnavailableError');

/**
 * PostgreSQL did not answer in time, could not be reached, or refused for a reason that passes (a
 * server shutting down or starting, too many connections, a serialization failure or deadlock).
 * Retryable: the server may come back.
 */
export class PostgresUnavailableError extends KeelError {
  private readonly [marker] = true;
  override readonly name = 'PostgresUnavailableError';
  readonly retryable = true;
  /** What was being done, e.g. `run store append`, `memory load`. */
  readonly operation: string;

  constructor({ operation, message, cause }: { operation: string; message: string; cause?: unknown }) {
    super({ message: `PostgreSQL unavailable during ${operation}: ${message}`, cause });
    this.operation = operation;
  }

  static isInstance(value: unknown): value is PostgresUnavailableError {
    return hasMarker(value, marker);
  }
}
