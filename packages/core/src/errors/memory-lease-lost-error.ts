import { KeelError } from '@keel/reliability';
import { hasMarker } from '@keel/reliability/internal';

const marker = Symbol.for('keel.error.MemoryLeaseLostError');

/**
 * A run tried to append after another run had taken the conversation (its fencing token is
 * older than the conversation's), so the append was refused and nothing was stored. A lease that
 * merely expired while nobody else came does not cause it. Not retryable as is: the conversation
 * moved on; run the turn again.
 */
export class MemoryLeaseLostError extends KeelError {
  private readonly [marker] = true;
  override readonly name = 'MemoryLeaseLostError';
  readonly retryable = false;
  readonly conversationId: string;

  constructor({ conversationId, cause }: { conversationId: string; cause?: unknown }) {
    super({ message: `Conversation "${conversationId}" was taken by another run after this run's lease expired; the exchange was not stored`, cause });
    this.conversationId = conversationId;
  }

  static isInstance(value: unknown): value is MemoryLeaseLostError {
    return hasMarker(value, marker);
  }
}
