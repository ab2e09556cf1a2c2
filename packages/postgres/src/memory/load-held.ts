import type { MemoryStore, Message } from '@keel/core';
import { sleep } from '@keel/reliability/internal';
import { ConversationBusyError } from '@keel/core/internal';
import type { StoreConnection } from '../postgres/store-connection';
import { storedKey } from '../postgres/stored-key';
import type { ConversationLeases } from './conversation-leases';
import { readSql, releaseSql, takeLeaseSql } from './memory-statements';
import type { MemorySettings } from './memory-settings';
import { parseExchanges, storeError } from './stored-exchanges';

/** The run a store serves (core's `MemoryRun`, as the `MemoryStore` hooks pass it). */
export type MemoryRun = NonNullable<Parameters<MemoryStore['load']>[1]>;

const POLL_MS = 25;

/**
 * Loads a conversation for `run`, taking its lease first: under `serialize` it polls while
 * another run holds the conversation (at most `maxWaitMs`), under `reject` it fails at once with
 * {@link ConversationBusyError}. The exchanges are read once the lease is taken (a later
 * statement, so every exchange stored before is seen, and no earlier holder stores one after),
 * leaving out the run's own (a job run again sees the conversation as it was before it). A
 * conversation it cannot read lets the lease just taken go.
 */
export async function loadHeld(connection: StoreConnection, settings: MemorySettings, leases: ConversationLeases, conversationId: string, run: MemoryRun): Promise<Message[]> {
  const { concurrency, leaseMs, maxWaitMs } = settings;
  const { schema } = connection;
  const keys = { conversation: storedKey(conversationId), run: storedKey(run.runId) };
  const waitUntil = Date.now() + maxWaitMs;
  for (;;) {
    const { rows } = await connection.query('memory load', takeLeaseSql(schema), [keys.conversation, keys.run, leaseMs], run.signal).catch(storeError('load'));
    const token = rows[0]?.token;
    if (token !== null && token !== undefined) {
      leases.hold(conversationId, run.runId, keys, String(token));
      try {
        const read = await connection.query('memory load', readSql(schema), [keys.conversation, keys.run], run.signal).catch(storeError('load'));
        return parseExchanges(`${schema}.exchanges`, read.rows);
      } catch (error) {
        // Unreadable (or the read failed): the lease just taken is let go at once, not left to expire.
        leases.stopRenewing(conversationId, run.runId);
        await connection.query('memory release', releaseSql(schema), [keys.conversation, String(token)]).catch(() => undefined);
        throw error;
      }
    }
    if (concurrency === 'reject') {
      throw new ConversationBusyError({ conversationId, message: `Conversation "${conversationId}" is in use by another run` });
    }
    const remaining = waitUntil - Date.now();
    if (remaining <= 0) {
      throw new ConversationBusyError({ conversationId, message: `Conversation "${conversationId}" stayed in use by another run for ${maxWaitMs} ms` });
    }
    // Poll: the holder's append or release frees it at once; a crashed holder's lease expires.
    const leaseLeft = Number(rows[0]?.left_ms);
    await sleep(Math.min(remaining, Math.max(1, Math.min(POLL_MS, leaseLeft > 0 ? leaseLeft : POLL_MS)) + Math.random() * 5), run.signal);
  }
}
