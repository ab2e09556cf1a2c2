import { randomUUID } from 'node:crypto';
import type { MemoryStore } from '@keel/core';
import { MemoryLeaseLostError } from '@keel/core/internal';
import { storedKey } from '../postgres/stored-key';
import { type PostgresStoreHandle, storeConnection } from '../postgres/store-connection';
import { postgresLeases } from './conversation-leases';
import { loadHeld, type MemoryRun } from './load-held';
import { appendSql, readSql, releaseSql, sweepSql } from './memory-statements';
import { memorySettings, type PostgresMemoryOptions } from './memory-settings';
import { parseExchanges, storeError } from './stored-exchanges';

/** A memory store on PostgreSQL, with its migrations and its pool at hand. */
export interface PostgresMemory extends MemoryStore, PostgresStoreHandle {}

/** Appends between two sweeps of expired conversations (when conversations expire). */
const SWEEP_EVERY = 256;

/**
 * A {@link MemoryStore} on PostgreSQL, with the same contract as `redisMemory`: each accepted
 * exchange is stored by one statement, whole or not at all, so every process sees the same
 * conversation, a sequence of whole exchanges. While an agent run works on a conversation it holds
 * a lease (a token and an expiry in the conversation's row), renewed while the run lives, released
 * when it ends (abort and failure included) and expiring on its own when the process dies.
 * Fencing decides an append: it is stored while no other run has taken the conversation since (a
 * lease that merely expired loses nothing), and refused with {@link MemoryLeaseLostError} once
 * another run has. An exchange is stored under its run id, so a run made again with the same id
 * replaces its exchange instead of adding one, and loads the conversation without it. Messages
 * are kept as JSON text (read back as written). A table changed by hand or a row Keel did not
 * write fails the run with a `MemoryStoreError` (not retryable); a server out of reach with
 * `PostgresError` (`unavailable`). Ephemeral messages are refused. With `ttlSeconds`, a conversation
 * expires that long after its last append, and expired conversations are swept as appends go.
 */
export function postgresMemory(options: PostgresMemoryOptions): PostgresMemory {
  const settings = memorySettings(options);
  const connection = storeConnection(options, 'postgresMemory');
  const { schema } = connection;
  const { ttlMs, leaseMs } = settings;
  const leases = postgresLeases(connection, leaseMs);
  let appends = 0;

  return {
    migrate: connection.migrate,
    close: connection.close,

    async load(conversationId, run?: MemoryRun) {
      if (run) return loadHeld(connection, settings, leases, conversationId, run);
      const { rows } = await connection.query('memory load', readSql(schema), [storedKey(conversationId), null]).catch(storeError('load'));
      return parseExchanges(`${schema}.exchanges`, rows);
    },

    async append(conversationId, messages, run?: MemoryRun) {
      if (!Array.isArray(messages)) throw new TypeError('postgresMemory: messages must be an array');
      if (messages.some((message) => message.ephemeral)) throw new TypeError('An ephemeral message cannot be stored in memory');
      const text = JSON.stringify(messages);
      const lease = run ? leases.stopRenewing(conversationId, run.runId) : undefined;
      const exchangeId = storedKey(run?.runId ?? randomUUID());
      const values = [storedKey(conversationId), exchangeId, text, lease?.token ?? null, ttlMs > 0 ? ttlMs : null];
      const { rows } = await connection.query('memory append', appendSql(schema), values, run?.signal).catch(storeError('append'));
      if (rows[0]?.stored !== 1) throw new MemoryLeaseLostError({ conversationId });
      // Conversations expired for longer than a few leases (no run can still hold them) are swept as appends go.
      if (ttlMs > 0 && ++appends % SWEEP_EVERY === 0) await connection.query('memory sweep', sweepSql(schema), [3 * leaseMs]).catch(() => undefined);
    },

    async release(conversationId, run) {
      const lease = leases.stopRenewing(conversationId, run.runId);
      if (!lease) return;
      // Released even when the run was aborted: the signal is not passed on.
      await connection.query('memory release', releaseSql(schema), [storedKey(conversationId), lease.token]);
    },
  };
}
