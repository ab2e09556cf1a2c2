import { randomUUID } from 'node:crypto';
import type { MemoryStore } from '@keel/core';
import { MemoryLeaseLostError } from '@keel/core/internal';
import { boundedCall } from '../redis/bounded-call';
import { conversationKeys, scriptKeys } from './conversation-keys';
import { redisLeases } from './conversation-leases';
import { loadHeld, type MemoryRun } from './load-held';
import { appendScript, loadScript, releaseScript } from './memory-scripts';
import { memorySettings, type RedisMemoryOptions } from './memory-settings';
import { parseExchanges, storeError } from './stored-exchanges';

/**
 * A {@link MemoryStore} on Redis. Each accepted exchange is stored by one Lua script, whole or
 * not at all, so every worker sees the same conversation: a sequence of whole exchanges. While an
 * agent run works on a conversation it holds a lease (a key with a TTL and a fencing token),
 * renewed while the run lives, released when it ends (abort and failure included) and expiring
 * on its own when the process dies. Fencing decides an append: it is stored while no other run
 * has taken the conversation since (a lease that merely expired, during a blocked event loop or a
 * paused Redis, loses nothing), and refused with {@link MemoryLeaseLostError} once another run
 * has. An exchange is stored under its run id, so a run made again with the same id (a BullMQ
 * job after a crash) replaces its exchange instead of adding one, and loads the conversation
 * without it. A key holding what Keel did not write fails the run with a `MemoryStoreError`
 * naming the key (not retryable); a lease value Keel cannot read counts as expired. Every
 * conversation id works on Redis Cluster: ids that cannot be a hash tag (`''`, braces) are
 * hashed. Ephemeral messages are refused.
 */
export function redisMemory(options: RedisMemoryOptions): MemoryStore {
  const settings = memorySettings(options);
  const { redis, prefix, ttlSeconds, timeoutMs, fenceTtlMs } = settings;
  const leases = redisLeases(settings);

  return {
    async load(conversationId, run?: MemoryRun) {
      if (run) return loadHeld(settings, leases, conversationId, run);
      const keys = conversationKeys(prefix, conversationId);
      const answer = (await boundedCall(() => loadScript.run(redis, scriptKeys(keys), ['', 0, 0]), { operation: 'memory load', timeoutMs }).catch(storeError('load'))) as string[];
      return parseExchanges(keys, answer.slice(2));
    },

    async append(conversationId, messages, run?: MemoryRun) {
      if (messages.some((message) => message.ephemeral)) throw new TypeError('An ephemeral message cannot be stored in memory');
      const lease = run ? leases.stopRenewing(conversationId, run.runId) : undefined;
      const exchangeId = run?.runId ?? randomUUID();
      const stored = await boundedCall(
        () => appendScript.run(redis, scriptKeys(conversationKeys(prefix, conversationId)), [exchangeId, JSON.stringify(messages), lease?.token ?? '', ttlSeconds, fenceTtlMs]),
        { operation: 'memory append', timeoutMs, signal: run?.signal },
      ).catch(storeError('append'));
      if (stored !== 1) throw new MemoryLeaseLostError({ conversationId });
    },

    async release(conversationId, run) {
      const lease = leases.stopRenewing(conversationId, run.runId);
      if (!lease) return;
      // Released even when the run was aborted: the signal is not passed on.
      await boundedCall(() => releaseScript.run(redis, [conversationKeys(prefix, conversationId).lease], [lease.token]), { operation: 'memory release', timeoutMs });
    },
  };
}
