import type { RedisClient } from '../redis/redis-client';
import { requireNonNegative } from '../support/require-non-negative';
import { normalizePrefix } from './conversation-keys';

/** What happens when a run loads a conversation another run holds. */
export type ConversationPolicy = 'serialize' | 'reject';

/** Settings of `redisMemory`. */
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
   * `reject`: a run that finds it taken fails at once with `ConversationBusyError`.
   */
  readonly concurrency?: ConversationPolicy;
  /** Lease time to live, renewed while the run lives; a crashed run's lease expires after it. Default 10 000. */
  readonly leaseMs?: number;
  /** Longest wait for a busy conversation under `serialize`. Default 60 000. */
  readonly maxWaitMs?: number;
  /** Longest wait for one Redis call. Default 2 000. */
  readonly timeoutMs?: number;
}

/** A Redis memory store's settings, checked, with every default filled in. */
export interface MemorySettings extends Required<RedisMemoryOptions> {
  /** How long the fencing counter lives (0: for ever): the conversation's TTL, and at least a few leases. */
  readonly fenceTtlMs: number;
}

/** Checks `options` and fills in the defaults; throws a `TypeError` naming the setting that is wrong. */
export function memorySettings(options: RedisMemoryOptions): MemorySettings {
  const { redis, ttlSeconds = 0, concurrency = 'serialize', leaseMs = 10_000, maxWaitMs = 60_000, timeoutMs = 2_000 } = options;
  const prefix = normalizePrefix(options.prefix ?? 'keel:', 'redisMemory');
  requireNonNegative('redisMemory', { ttlSeconds, leaseMs, maxWaitMs, timeoutMs });
  if (leaseMs < 100) throw new TypeError(`redisMemory: leaseMs must be at least 100, got ${leaseMs}`);
  // The fencing counter outlives the conversation's TTL by a few leases, so a run in progress keeps its token.
  const fenceTtlMs = ttlSeconds > 0 ? Math.max(Math.ceil(ttlSeconds * 1000), 3 * leaseMs) : 0;
  return { redis, prefix, ttlSeconds, concurrency, leaseMs, maxWaitMs, timeoutMs, fenceTtlMs };
}
