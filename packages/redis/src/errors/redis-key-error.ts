import { keelError } from '@keel/reliability/internal';

/**
 * A key Keel uses holds something Keel did not write: a value of the wrong type (a string where a
 * hash belongs, say) or one it cannot read (a fencing counter that is not a number, an exchange
 * that is not JSON). Redis answered, so waiting will not help: not retryable. Delete or fix the
 * key named by `key`. The memory store reports it as the cause of a `MemoryStoreError`.
 */
export class RedisKeyError extends keelError('RedisKeyError', { retryable: false }) {
  /** The key that holds the unexpected value (empty when Redis did not say which). */
  readonly key: string;
  /** What was being done, e.g. `memory load`, `shared-budget read`. */
  readonly operation: string;

  constructor({ key, operation, message, cause }: { key: string; operation: string; message: string; cause?: unknown }) {
    super({ message: `Redis key ${key === '' ? '(unnamed)' : `"${key}"`} cannot be used for ${operation}: ${message}`, cause });
    this.key = key;
    this.operation = operation;
  }
}
