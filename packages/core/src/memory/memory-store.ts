import type { Message } from '../model/message';

/**
 * Where conversations are kept between runs. Keel appends only the accepted exchange of a run,
 * never ephemeral messages.
 */
export interface MemoryStore {
  /** The conversation's messages, oldest first; empty for an unknown id. */
  load(conversationId: string): Promise<readonly Message[]>;
  /** Appends messages to the conversation. */
  append(conversationId: string, messages: readonly Message[]): Promise<void>;
}

/** A {@link MemoryStore} in process memory. Stores copies, so callers cannot change what is kept. */
export class InMemoryStore implements MemoryStore {
  private readonly conversations = new Map<string, Message[]>();

  async load(conversationId: string): Promise<readonly Message[]> {
    return structuredClone(this.conversations.get(conversationId) ?? []);
  }

  async append(conversationId: string, messages: readonly Message[]): Promise<void> {
    if (messages.some((message) => message.ephemeral)) throw new TypeError('An ephemeral message cannot be stored in memory');
    const kept = this.conversations.get(conversationId) ?? [];
    for (const message of messages) kept.push(structuredClone(message));
    this.conversations.set(conversationId, kept);
  }
}
