import type { PostgresStoreOptions } from '../postgres/store-connection';

/** What happens when a run loads a conversation another run holds. */
export type ConversationPolicy = 'serialize' | 'reject';

/** Settings of `postgresMemory`: where its tables are, and how conversations are shared. */
export type PostgresMemoryOptions = PostgresStoreOptions & {
  /** Conversations expire this long after their last append (fractions allowed). Default: never. */
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
};

/** How a PostgreSQL memory store shares conversations, checked, with every default filled in. */
export interface MemorySettings {
  /** Conversation time to live in ms (0: for ever). */
  readonly ttlMs: number;
  readonly concurrency: ConversationPolicy;
  readonly leaseMs: number;
  readonly maxWaitMs: number;
}

const OWNER = 'postgresMemory';

/** Checks the sharing settings of `options` and fills in the defaults; throws a `TypeError` naming the setting that is wrong. */
export function memorySettings(options: PostgresMemoryOptions): MemorySettings {
  const { ttlSeconds = 0, concurrency = 'serialize', leaseMs = 10_000, maxWaitMs = 60_000 } = options;
  for (const [name, value] of Object.entries({ ttlSeconds, leaseMs, maxWaitMs })) {
    if (!Number.isFinite(value) || value < 0) throw new TypeError(`${OWNER}: ${name} must be a finite number >= 0, got ${value}`);
  }
  if (leaseMs < 100) throw new TypeError(`${OWNER}: leaseMs must be at least 100, got ${leaseMs}`);
  if (concurrency !== 'serialize' && concurrency !== 'reject') throw new TypeError(`${OWNER}: concurrency must be serialize or reject, got ${String(concurrency)}`);
  return { ttlMs: Math.ceil(ttlSeconds * 1000), concurrency, leaseMs: Math.ceil(leaseMs), maxWaitMs };
}
