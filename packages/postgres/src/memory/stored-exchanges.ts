import { MemoryStoreError, type Message } from '@keel/core';
import { PostgresError } from '../errors/postgres-error';

/** The messages of a conversation's stored exchanges, in order; an exchange that is not a JSON array of messages fails the load, naming the table. */
export function parseExchanges(table: string, rows: readonly Record<string, unknown>[]): Message[] {
  return rows.flatMap((row) => {
    let messages: unknown;
    try {
      messages = JSON.parse(String(row.messages));
    } catch {
      messages = undefined;
    }
    if (!Array.isArray(messages)) {
      throw new MemoryStoreError({ operation: 'load', cause: new PostgresError({ problem: 'refused', operation: 'memory load', table, message: 'an exchange is not a JSON array of messages' }) });
    }
    return messages as Message[];
  });
}

/** A refusal that waiting will not change fails the run for good, as a `MemoryStoreError`: a rejection handler for `operation`. */
export function storeError(operation: 'load' | 'append'): (error: unknown) => never {
  return (error) => {
    throw PostgresError.isInstance(error) && error.problem === 'refused' ? new MemoryStoreError({ operation, cause: error }) : error;
  };
}
