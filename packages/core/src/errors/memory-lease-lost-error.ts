import { keelError } from '@keel/reliability/internal';

/**
 * A run tried to append after another run had taken the conversation (its fencing token is
 * older than the conversation's), so the append was refused and nothing was stored. A lease that
 * merely expired while nobody else came does not cause it. Not retryable as is: the conversation
 * moved on; run the turn again.
 */
export class MemoryLeaseLostError extends keelError('MemoryLeaseLostError', { retryable: false }) {
  readonly conversationId: string;

  constructor({ conversationId, cause }: { conversationId: string; cause?: unknown }) {
    super({ message: `Conversation "${conversationId}" was taken by another run after this run's lease expired; the exchange was not stored`, cause });
    this.conversationId = conversationId;
  }
}
