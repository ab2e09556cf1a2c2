import type { MemoryStore, Message } from '@keel/core';
import { type ConversationLeases, loadHeldConversation } from '@keel/core/internal';
import type { StoreConnection } from '../postgres/store-connection';
import { storedKey } from '../postgres/stored-key';
import { readSql, releaseSql, takeLeaseSql } from './memory-statements';
import type { MemorySettings } from './memory-settings';
import { parseExchanges, storeError } from './stored-exchanges';

/** The run a store serves (core's `MemoryRun`, as the `MemoryStore` hooks pass it). */
export type MemoryRun = NonNullable<Parameters<MemoryStore['load']>[1]>;

/**
 * Loads a conversation for `run` under its lease (core's `loadHeldConversation`). The exchanges
 * are read once the lease is taken (a later statement, so every exchange stored before is seen,
 * and no earlier holder stores one after), leaving out the run's own (a job run again sees the
 * conversation as it was before it).
 */
export function loadHeld(connection: StoreConnection, settings: MemorySettings, leases: ConversationLeases, conversationId: string, run: MemoryRun): Promise<Message[]> {
  const { schema } = connection;
  const keys = { conversation: storedKey(conversationId), run: storedKey(run.runId) };
  const take = async () => {
    const { rows } = await connection.query('memory load', takeLeaseSql(schema), [keys.conversation, keys.run, settings.leaseMs], run.signal).catch(storeError('load'));
    const token = rows[0]?.token;
    return token !== null && token !== undefined ? { token: String(token) } : { leftMs: Number(rows[0]?.left_ms) };
  };
  const read = async () => {
    const { rows } = await connection.query('memory load', readSql(schema), [keys.conversation, keys.run], run.signal).catch(storeError('load'));
    return parseExchanges(`${schema}.exchanges`, rows);
  };
  const release = (token: string) => connection.query('memory release', releaseSql(schema), [keys.conversation, token]);
  return loadHeldConversation({ take, read, release }, leases, settings, conversationId, run);
}
