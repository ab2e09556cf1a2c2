import type { RunStore } from '@keel/core';
import { StaleRunOwnerError } from '@keel/core';
import { boundedCall } from '../redis/bounded-call';
import type { RedisClient } from '../redis/redis-client';
import { normalizePrefix } from '../memory/conversation-keys';
import { checkAppend, checkLease, checkStoreKey as checkKey } from '@keel/core/internal';
import { claimKey, runKeys } from './run-keys';
import { storedRunOf } from './stored-run-reply';
import { acquireAtScript, acquireScript, appendScript, claimScript, loadScript, releaseScript } from './run-store-scripts';

/** Settings of {@link redisRunStore}. */
export interface RedisRunStoreOptions {
  /** An ioredis client (`Redis` or `Cluster`). */
  readonly redis: RedisClient;
  /** Key prefix, without braces. Default `keel:`; one without a trailing `:` gets one. */
  readonly prefix?: string;
  /** Longest wait for one Redis call. Default 2 000. */
  readonly timeoutMs?: number;
}

const NAME = 'redisRunStore';

/**
 * A {@link RunStore} on Redis, shared by every worker of a fleet. A run's journal is a list of
 * JSON texts (one per entry, appended with `RPUSH`, never rewritten) beside a hash of its agent,
 * tenant and status; its version is the list's length. Each operation is one Lua script, so one
 * atomic round trip: acquiring a run hands out a fence from a counter; an append is written only
 * while its writer's fence is the newest (a stale worker's append is refused with
 * `StaleRunOwnerError`, nothing written); `acquireAt` compares the list's length and hands out a
 * fence in the same step; a claim is a `SET NX` with a TTL, spent once across the fleet. A run's
 * keys share one hash tag (one cluster slot). A key holding what Keel did not write fails with a
 * `RedisError` (`key`) naming it; bad input fails with a `TypeError` before anything is sent.
 */
export function redisRunStore(options: RedisRunStoreOptions): RunStore {
  const { redis, timeoutMs = 2_000 } = options;
  const prefix = normalizePrefix(options.prefix ?? 'keel:', NAME);
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) throw new TypeError(`${NAME}: timeoutMs must be a finite number > 0, got ${timeoutMs}`);
  const call = <T>(operation: string, work: () => Promise<T>) => boundedCall(work, { operation: `run store ${operation}`, timeoutMs });
  return {
    shared: true,
    async acquire(runId) {
      const keys = runKeys(prefix, checkKey(runId, 'a run id', NAME));
      const fence = await call('acquire', () => acquireScript.run(redis, [keys.fence], []));
      return { runId, fence: Number(fence) };
    },
    async acquireAt(runId, version) {
      const keys = runKeys(prefix, checkKey(runId, 'a run id', NAME));
      if (typeof version !== 'number') throw new TypeError(`${NAME}: a version must be a number, got ${typeof version}`);
      // No journal has a version that is not a whole number >= 0.
      if (!Number.isSafeInteger(version) || version < 0) return undefined;
      const fence = Number(await call('acquire', () => acquireAtScript.run(redis, [keys.fence, keys.entries], [version])));
      return fence === -1 ? undefined : { runId, fence };
    },
    async append(lease, append) {
      const { runId, fence } = checkLease(lease, NAME);
      const { agentId, tenant, status, texts } = checkAppend(append, NAME);
      const keys = runKeys(prefix, runId);
      const args = [String(fence), agentId, status, tenant === undefined ? '0' : '1', tenant ?? '', ...texts];
      const version = Number(await call('append', () => appendScript.run(redis, [keys.fence, keys.entries, keys.meta], args)));
      if (version === -1) throw new StaleRunOwnerError({ runId, fence });
      return version;
    },
    async load(runId) {
      const keys = runKeys(prefix, checkKey(runId, 'a run id', NAME));
      const reply = await call('load', () => loadScript.run(redis, [keys.entries, keys.meta], []));
      return storedRunOf(runId, keys, reply);
    },
    async claim(key, ttlMs) {
      checkKey(key, 'a claim key', NAME);
      const ttl = Math.max(1, Math.ceil(Number.isFinite(ttlMs) ? ttlMs : 1));
      const claimed = await call('claim', () => claimScript.run(redis, [claimKey(prefix, key)], [ttl]));
      return Number(claimed) === 1;
    },
    async release(key) {
      checkKey(key, 'a claim key', NAME);
      await call('release', () => releaseScript.run(redis, [claimKey(prefix, key)], []));
    },
  };
}
