import { keelError } from '@keel/reliability/internal';

/**
 * What went wrong with Redis: `unavailable`, it did not answer in time or refused a command
 * (retryable: the server may come back); `key`, a key Keel uses holds something Keel did not
 * write, a value of the wrong type (a string where a hash belongs, say) or one it cannot read (a
 * fencing counter that is not a number, an exchange that is not JSON). Redis answered, so waiting
 * will not help: not retryable; delete or fix the key named by `key`.
 */
export type RedisProblem = 'unavailable' | 'key';

/** Constructor fields of {@link RedisError}, by problem. */
export type RedisErrorOptions = { readonly operation: string; readonly message: string; readonly cause?: unknown } & (
  | { readonly problem: 'unavailable' }
  | { readonly problem: 'key'; readonly key: string }
);

/**
 * Redis failed a Keel operation, as its `problem` says; only `unavailable` is retryable. The
 * memory store reports a `key` problem as the cause of a `MemoryStoreError`.
 */
export class RedisError extends keelError('RedisError') {
  readonly problem: RedisProblem;
  /** What was being done, e.g. `shared-budget read`, `memory append`. */
  readonly operation: string;
  /** The key that holds the unexpected value (`key`; empty when Redis did not say which). */
  readonly key?: string;

  constructor(options: RedisErrorOptions) {
    const { problem, operation, message, cause } = options;
    const unavailable = problem === 'unavailable';
    super({
      message: unavailable ? `Redis unavailable during ${operation}: ${message}` : `Redis key ${options.key === '' ? '(unnamed)' : `"${options.key}"`} cannot be used for ${operation}: ${message}`,
      cause,
      retryable: unavailable,
    });
    this.problem = problem;
    this.operation = operation;
    if (!unavailable) this.key = options.key;
  }
}
