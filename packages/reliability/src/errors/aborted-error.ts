import { KeelError, hasMarker } from './keel-error';

const marker = Symbol.for('keel.error.AbortedError');

/** The operation was cancelled through its `AbortSignal`. Never retried. */
export class AbortedError extends KeelError {
  private readonly [marker] = true;
  override readonly name = 'AbortedError';
  readonly retryable = false;
  /** Exposed so error classification treats it as `aborted`. */
  readonly errorKind = 'aborted' as const;

  constructor({ message = 'The operation was aborted', cause }: { message?: string; cause?: unknown } = {}) {
    super({ message, cause });
  }

  static isInstance(value: unknown): value is AbortedError {
    return hasMarker(value, marker);
  }

  /** Builds the error for an aborted signal, keeping its reason as the cause. */
  static fromSignal(signal: AbortSignal): AbortedError {
    return new AbortedError({ cause: signal.reason });
  }
}
