import { KeelError } from '@keel/reliability';
import { hasMarker } from '@keel/reliability/internal';

const marker = Symbol.for('keel.error.MemoryLeaseLostError');

/**
 * A run tried to append after its lease on the conversation had expired and another run took it
 * (its fencing token is stale), so the append was refused and nothing was stored. Not retryable
 * as is: the conversation moved on; run the turn again.
 */
export class MemoryLeaseLostError extends KeelError {
  private readonly [marker] = true;
  override readonly name = 'MemoryLeaseLostError';
  readonly retryable = false;
  readonly conversationId: string;

  constructor({ conversationId, cause }: { conversationId: string; cause?: unknown }) {
    super({ message: `The lease on conversation "${conversationId}" expired and was taken by another run; the exchange was not stored`, cause });
    this.conversationId = conversationId;
  }

  static isInstance(value: unknown): value is MemoryLeaseLostError {
    return hasMarker(value, marker);
  }
}
