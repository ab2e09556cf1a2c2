import { randomUUID } from 'node:crypto';
import { type MemoryStore, MemoryStoreError, type Message } from '@keel/core';
import { sleep } from '@keel/reliability/internal';
import { ConversationBusyError } from '../errors/conversation-busy-error';
import { MemoryLeaseLostError } from '../errors/memory-lease-lost-error';
import { RedisKeyError } from '../errors/redis-key-error';
import { boundedCall } from '../redis/bounded-call';
import type { RedisClient } from '../redis/redis-client';
import { type ConversationKeys, conversationKeys, normalizePrefix } from './conversation-keys';
import { appendScript, loadScript, releaseScript, renewScript } from './memory-scripts';

/** The run a store serves (core's `MemoryRun`, as the `MemoryStore` hooks pass it). */
type MemoryRun = NonNullable<Parameters<MemoryStore['load']>[1]>;

/** What happens when a run loads a conversation another run holds. */
export type ConversationPolicy = 'serialize' | 'reject';

/** Settings of {@link redisMemory}. */
export interface RedisMemoryOptions {
  /** An ioredis client (`Redis` or `Cluster`). */
  readonly redis: RedisClient;
  /**
   * Key prefix, without braces. Default `keel:`. A prefix that does not end with `:` gets one
   * (`support` gives `support:memory:{…}`).
   */
  readonly prefix?: string;
  /** Conversations expire this long after their last append. Default: never. */
  readonly ttlSeconds?: number;
  /**
   * `serialize` (default): a run waits until the conversation is free, so turns never interleave.
   * `reject`: a run that finds it taken fails at once with {@link ConversationBusyError}.
   */
  readonly concurrency?: ConversationPolicy;
  /** Lease time to live, renewed while the run lives; a crashed run's lease expires after it. Default 10 000. */
  readonly leaseMs?: number;
  /** Longest wait for a busy conversation under `serialize`. Default 60 000. */
  readonly maxWaitMs?: number;
  /** Longest wait for one Redis call. Default 2 000. */
  readonly timeoutMs?: number;
}

/** The lease a run holds on a conversation in this process. */
interface HeldLease {
  readonly holder: string;
  readonly renewal: ReturnType<typeof setInterval>;
}

const POLL_MS = 25;

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
  const { redis, ttlSeconds = 0, concurrency = 'serialize', leaseMs = 10_000, maxWaitMs = 60_000, timeoutMs = 2_000 } = options;
  const prefix = normalizePrefix(options.prefix ?? 'keel:', 'redisMemory');
  for (const [name, value] of Object.entries({ ttlSeconds, leaseMs, maxWaitMs, timeoutMs })) {
    if (!Number.isFinite(value) || value < 0) throw new TypeError(`redisMemory: ${name} must be a finite number >= 0, got ${value}`);
  }
  if (leaseMs < 100) throw new TypeError(`redisMemory: leaseMs must be at least 100, got ${leaseMs}`);
  // The fencing counter outlives the conversation's TTL by a few leases, so a run in progress keeps its token.
  const fenceTtlMs = ttlSeconds > 0 ? Math.max(Math.ceil(ttlSeconds * 1000), 3 * leaseMs) : 0;
  const held = new Map<string, HeldLease>();
  const keysOf = (conversationId: string): ConversationKeys => conversationKeys(prefix, conversationId);
  const keyList = (keys: ConversationKeys) => [keys.order, keys.exchanges, keys.lease, keys.fence];
  // Injective whatever the ids hold (a separator character could be part of either).
  const heldKey = (conversationId: string, runId: string) => JSON.stringify([conversationId, runId]);

  /** A key that holds what Keel did not write fails the run for good, naming the key. */
  const storeError = (operation: 'load' | 'append') => (error: unknown): never => {
    throw RedisKeyError.isInstance(error) ? new MemoryStoreError({ operation, cause: error }) : error;
  };

  const stopRenewing = (conversationId: string, runId: string): HeldLease | undefined => {
    const lease = held.get(heldKey(conversationId, runId));
    if (lease) {
      clearInterval(lease.renewal);
      held.delete(heldKey(conversationId, runId));
    }
    return lease;
  };

  const hold = (conversationId: string, runId: string, holder: string) => {
    // A second load of the same run replaces its lease: the earlier renewal stops.
    stopRenewing(conversationId, runId);
    const { lease, fence } = keysOf(conversationId);
    const renewal = setInterval(() => {
      boundedCall(() => renewScript.run(redis, [lease, fence], [holder, leaseMs, fenceTtlMs]), { operation: 'memory lease renewal', timeoutMs }).then(
        (renewed) => {
          // Taken by another run (a newer token): stop renewing but keep the holder, so the append is refused.
          if (renewed !== 1) clearInterval(renewal);
        },
        () => undefined,
      );
    }, Math.max(50, Math.floor(leaseMs / 3)));
    renewal.unref?.();
    held.set(heldKey(conversationId, runId), { holder, renewal });
  };

  const parse = (keys: ConversationKeys, exchanges: readonly string[]): Message[] =>
    exchanges.flatMap((exchange) => {
      let messages: unknown;
      try {
        messages = JSON.parse(exchange);
      } catch {
        messages = undefined;
      }
      if (!Array.isArray(messages)) {
        throw new MemoryStoreError({
          operation: 'load',
          cause: new RedisKeyError({ key: keys.exchanges, operation: 'memory load', message: 'an exchange is not a JSON array of messages' }),
        });
      }
      return messages as Message[];
    });

  return {
    async load(conversationId, run?: MemoryRun) {
      const keys = keysOf(conversationId);
      if (!run) {
        const answer = (await boundedCall(() => loadScript.run(redis, keyList(keys), ['', 0, 0]), { operation: 'memory load', timeoutMs }).catch(
          storeError('load'),
        )) as string[];
        return parse(keys, answer.slice(2));
      }
      const waitUntil = Date.now() + maxWaitMs;
      for (;;) {
        const answer = (await boundedCall(() => loadScript.run(redis, keyList(keys), [run.runId, leaseMs, fenceTtlMs]), {
          operation: 'memory load',
          timeoutMs,
          signal: run.signal,
        }).catch(storeError('load'))) as [string, string | number, ...string[]];
        if (answer[0] === 'ok') {
          const holder = `${answer[1]} ${run.runId}`;
          hold(conversationId, run.runId, holder);
          try {
            return parse(keys, answer.slice(2) as string[]);
          } catch (error) {
            // Unreadable: the lease just taken is let go at once, not left to expire.
            stopRenewing(conversationId, run.runId);
            await boundedCall(() => releaseScript.run(redis, [keys.lease], [holder]), { operation: 'memory release', timeoutMs }).catch(() => undefined);
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
        const leaseLeft = Number(answer[1]);
        await sleep(Math.min(remaining, Math.max(1, Math.min(POLL_MS, leaseLeft > 0 ? leaseLeft : POLL_MS)) + Math.random() * 5), run.signal);
      }
    },

    async append(conversationId, messages, run?: MemoryRun) {
      if (messages.some((message) => message.ephemeral)) throw new TypeError('An ephemeral message cannot be stored in memory');
      const lease = run ? stopRenewing(conversationId, run.runId) : undefined;
      const exchangeId = run?.runId ?? randomUUID();
      const stored = await boundedCall(
        () => appendScript.run(redis, keyList(keysOf(conversationId)), [exchangeId, JSON.stringify(messages), lease?.holder ?? '', ttlSeconds, fenceTtlMs]),
        { operation: 'memory append', timeoutMs, signal: run?.signal },
      ).catch(storeError('append'));
      if (stored !== 1) throw new MemoryLeaseLostError({ conversationId });
    },

    async release(conversationId, run) {
      const lease = stopRenewing(conversationId, run.runId);
      if (!lease) return;
      // Released even when the run was aborted: the signal is not passed on.
      await boundedCall(() => releaseScript.run(redis, [keysOf(conversationId).lease], [lease.holder]), { operation: 'memory release', timeoutMs });
    },
  };
}
