import { keelError, reduceError } from '@keel/reliability/internal';

/**
 * The memory store's `load` or `append` failed (threw, rejected) with something that is not a
 * Keel error: the store's failure is the cause. Keel errors a store throws (a busy conversation,
 * an unavailable backend) reach the caller as they are. Not retried.
 */
export class MemoryStoreError extends keelError('MemoryStoreError', { retryable: false }) {
  /** The store call that failed. */
  readonly operation: 'load' | 'append';

  constructor({ operation, cause }: { operation: 'load' | 'append'; cause: unknown }) {
    super({ message: `The memory store's ${operation} failed: ${reduceError(cause).message}`, cause });
    this.operation = operation;
  }
}
