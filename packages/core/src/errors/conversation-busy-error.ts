import { KeelError } from '@keel/reliability';
import { hasMarker } from '@keel/reliability/internal';

const marker = Symbol.for('keel.error.ConversationBusyError');

/**
 * Another run holds the conversation: with the `reject` policy at once, with `serialize` after
 * waiting `maxWaitMs`. Retryable: the other run will finish or its lease expire.
 */
export class ConversationBusyError extends KeelError {
  private readonly [marker] = true;
  override readonly name = 'ConversationBusyError';
  readonly retryable = true;
  readonly conversationId: string;

  constructor({ conversationId, message, cause }: { conversationId: string; message: string; cause?: unknown }) {
    super({ message, cause });
    this.conversationId = conversationId;
  }

  static isInstance(value: unknown): value is ConversationBusyError {
    return hasMarker(value, marker);
  }
}
