import { KeelError } from '@keel/reliability';
import { hasMarker, reduceError } from '@keel/reliability/internal';

const marker = Symbol.for('keel.error.StreamInterruptedError');

/**
 * A pass-through stream failed after text had been shown. Not retried: the reader already saw
 * part of the answer. The original failure is the cause.
 */
export class StreamInterruptedError extends KeelError {
  private readonly [marker] = true;
  override readonly name = 'StreamInterruptedError';
  readonly retryable = false;
  /** Classified as `unknown` so no default rule retries it. */
  readonly errorKind = 'unknown' as const;

  constructor({ cause }: { cause: unknown }) {
    super({ message: `The stream failed after text was shown, so it is not retried: ${reduceError(cause).message}`, cause });
  }

  static isInstance(value: unknown): value is StreamInterruptedError {
    return hasMarker(value, marker);
  }
}
