import type { RunCheckpoint, RunLease, RunStore } from '@keel/core';
import { StaleRunOwnerError } from '@keel/core';
import { RedisKeyError } from '../errors/redis-key-error';
import { boundedCall } from '../redis/bounded-call';
import type { RedisClient } from '../redis/redis-client';
import { conversationTag, normalizePrefix } from '../memory/conversation-keys';
import { acquireAtScript, acquireScript, claimScript, loadScript, releaseScript, saveScript } from './run-store-scripts';

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

function checkKey(value: unknown, what: string): string {
  if (typeof value !== 'string' || value.length === 0) throw new TypeError(`${NAME}: ${what} must be a non-empty string`);
  return value;
}

/**
 * A {@link RunStore} on Redis, shared by every worker of a fleet. Each operation is one Lua
 * script, so one atomic round trip: acquiring a run hands out a fence from a counter; a
 * checkpoint is written only while its writer's fence is the newest (a stale worker's write is
 * refused with `StaleRunOwnerError`, never merged); a claim is a `SET NX` with a TTL, spent once
 * across the fleet. A run's keys share one hash tag (one cluster slot). A key holding what Keel
 * did not write fails with {@link RedisKeyError} naming it.
 */
export function redisRunStore(options: RedisRunStoreOptions): RunStore {
  const { redis, timeoutMs = 2_000 } = options;
  const prefix = normalizePrefix(options.prefix ?? 'keel:', NAME);
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) throw new TypeError(`${NAME}: timeoutMs must be a finite number > 0, got ${timeoutMs}`);
  const base = (runId: string) => `${prefix}run:{${conversationTag(runId)}}`;
  const claimKey = (key: string) => `${prefix}claim:{${conversationTag(key)}}`;
  const call = <T>(operation: string, work: () => Promise<T>) => boundedCall(work, { operation: `run store ${operation}`, timeoutMs });
  return {
    async acquire(runId) {
      checkKey(runId, 'a run id');
      const fence = await call('acquire', () => acquireScript.run(redis, [`${base(runId)}:fence`], []));
      return { runId, fence: Number(fence) };
    },
    async acquireAt(runId, version) {
      checkKey(runId, 'a run id');
      const key = `${base(runId)}:checkpoint`;
      const fence = Number(await call('acquire', () => acquireAtScript.run(redis, [`${base(runId)}:fence`, key], [String(version)])));
      if (fence === -2) throw new RedisKeyError({ key, operation: 'run store acquire', message: 'it is not a hash' });
      return fence === -1 ? undefined : { runId, fence };
    },
    async save(lease: RunLease, checkpoint) {
      const runId = checkKey(lease?.runId, 'a lease run id');
      const key = `${base(runId)}:checkpoint`;
      const data = JSON.stringify(checkpoint);
      const version = Number(await call('save', () => saveScript.run(redis, [`${base(runId)}:fence`, key], [String(lease.fence), data])));
      if (version === -1) throw new StaleRunOwnerError({ runId, fence: lease.fence });
      if (version === -2) throw new RedisKeyError({ key, operation: 'run store save', message: 'it is not a hash' });
      return { ...(JSON.parse(data) as Omit<RunCheckpoint, 'version' | 'runId'>), runId, version };
    },
    async load(runId) {
      checkKey(runId, 'a run id');
      const key = `${base(runId)}:checkpoint`;
      const reply = await call('load', () => loadScript.run(redis, [key], []));
      if (reply === -2) throw new RedisKeyError({ key, operation: 'run store load', message: 'it is not a hash' });
      if (!Array.isArray(reply) || reply.length === 0) return undefined;
      const [version, data] = reply as [unknown, unknown];
      try {
        return { ...(JSON.parse(String(data)) as Omit<RunCheckpoint, 'version' | 'runId'>), runId, version: Number(version) };
      } catch (error) {
        throw new RedisKeyError({ key, operation: 'run store load', message: 'its checkpoint is not JSON', cause: error });
      }
    },
    async claim(key, ttlMs) {
      checkKey(key, 'a claim key');
      const ttl = Math.max(1, Math.ceil(Number.isFinite(ttlMs) ? ttlMs : 1));
      const claimed = await call('claim', () => claimScript.run(redis, [claimKey(key)], [ttl]));
      return Number(claimed) === 1;
    },
    async release(key) {
      checkKey(key, 'a claim key');
      await call('release', () => releaseScript.run(redis, [claimKey(key)], []));
    },
  };
}
