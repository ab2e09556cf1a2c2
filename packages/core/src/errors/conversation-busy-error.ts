import { keelError } from '@keel/reliability/internal';

/**
 * Another run holds the conversation: with the `reject` policy at once, with `serialize` after
 * waiting `maxWaitMs`. Retryable: the other run will finish or its lease expire.
 */
export class ConversationBusyError extends keelError('ConversationBusyError', { retryable: true }) {
  readonly conversationId: string;

  constructor({ conversationId, message, cause }: { conversationId: string; message: string; cause?: unknown }) {
    super({ message, cause });
    this.conversationId = conversationId;
  }
}
