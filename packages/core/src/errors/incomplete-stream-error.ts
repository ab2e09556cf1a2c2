import { KeelError } from '@keel/reliability';
import { hasMarker } from '@keel/reliability/internal';

const marker = Symbol.for('keel.error.IncompleteStreamError');

/** A provider stream ended without its final part: the answer is incomplete. Retryable as a network fault. */
export class IncompleteStreamError extends KeelError {
  private readonly [marker] = true;
  override readonly name = 'IncompleteStreamError';
  readonly retryable = true;
  /** Classified as `network`, so the default transient rule retries it. */
  readonly errorKind = 'network' as const;

  constructor({ cause }: { cause?: unknown } = {}) {
    super({ message: 'The model stream ended without a finish part', cause });
  }

  static isInstance(value: unknown): value is IncompleteStreamError {
    return hasMarker(value, marker);
  }
}
