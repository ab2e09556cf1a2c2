import { KeelError, hasMarker } from './keel-error';

const marker = Symbol.for('keel.error.BadResponseError');

/**
 * A provider broke the model spec: it answered `undefined`/`null`, content that is missing or not
 * a list, a part without its text, or threw something that is not an error (`undefined`). Kind
 * `bad-response`, retried like a server error by the default rules, never blamed on the validator.
 */
export class BadResponseError extends KeelError {
  private readonly [marker] = true;
  override readonly name = 'BadResponseError';
  readonly retryable = true;
  /** Exposed so error classification treats it as `bad-response`. */
  readonly errorKind = 'bad-response' as const;

  constructor({ message, cause }: { message: string; cause?: unknown }) {
    super({ message: `The provider's response broke the model spec: ${message}`, cause });
  }

  static isInstance(value: unknown): value is BadResponseError {
    return hasMarker(value, marker);
  }
}
