import { MemoryStoreError, type Message } from '@keel/core';
import { RedisError } from '../errors/redis-error';
import type { ConversationKeys } from './conversation-keys';

/** The messages of a conversation's stored exchanges, in order; an exchange that is not a JSON array of messages fails the load, naming the key. */
export function parseExchanges(keys: ConversationKeys, exchanges: readonly string[]): Message[] {
  return exchanges.flatMap((exchange) => {
    let messages: unknown;
    try {
      messages = JSON.parse(exchange);
    } catch {
      messages = undefined;
    }
    if (!Array.isArray(messages)) {
      throw new MemoryStoreError({
        operation: 'load',
        cause: new RedisError({ problem: 'key', key: keys.exchanges, operation: 'memory load', message: 'an exchange is not a JSON array of messages' }),
      });
    }
    return messages as Message[];
  });
}

/** A key that holds what Keel did not write fails the run for good, naming the key: a rejection handler for `operation`. */
export function storeError(operation: 'load' | 'append'): (error: unknown) => never {
  return (error) => {
    throw RedisError.isInstance(error) && error.problem === 'key' ? new MemoryStoreError({ operation, cause: error }) : error;
  };
}
