import { KeelError } from '@keel/reliability';
import { hasMarker } from '@keel/reliability/internal';

const marker = Symbol.for('keel.error.RedisUnavailableError');

/** Redis did not answer in time or refused a command. Retryable: the server may come back. */
export class RedisUnavailableError extends KeelError {
  private readonly [marker] = true;
  override readonly name = 'RedisUnavailableError';
  readonly retryable = true;
  /** What was being done, e.g. `shared-budget read`, `memory append`. */
  readonly operation: string;

  constructor({ operation, message, cause }: { operation: string; message: string; cause?: unknown }) {
    super({ message: `Redis unavailable during ${operation}: ${message}`, cause });
    this.operation = operation;
  }

  static isInstance(value: unknown): value is RedisUnavailableError {
    return hasMarker(value, marker);
  }
}
