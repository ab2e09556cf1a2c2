import { randomUUID } from 'node:crypto';
import { boundedCall } from '../redis/bounded-call';
import type { RedisClient } from '../redis/redis-client';
import { debitScript, readScript } from './budget-scripts';

/** What a shared budget has spent in its current window. */
export interface BudgetSpent {
  readonly usd: number;
  readonly tokens: number;
}

/** Where a shared budget's spending is kept, and how long one Redis call may take. */
export interface BudgetLedgerOptions {
  readonly redis: RedisClient;
  /** The budget's key; a window's key adds the window's number. */
  readonly key: string;
  /** Length of a budget window in milliseconds (0: one budget for ever). */
  readonly window: number;
  readonly timeoutMs: number;
  /** Told about every debit that failed (the debit is kept and added to the next one). */
  readonly report: (error: unknown) => void;
}

/** A shared budget's spending in Redis, with the debits this process could not store yet. */
export interface BudgetLedger {
  /** What the budget has spent in the current window, after this process's pending debits (those not stored counted too). */
  spent(signal?: AbortSignal): Promise<BudgetSpent>;
  /** Debits `usd` and `tokens`, with any debit still owed; resolves once stored or failed (never rejects). */
  debit(usd: number, tokens: number): Promise<void>;
  /** Resolves when every debit this process started has been stored (or has failed). */
  settled(): Promise<void>;
}

const NANO = 1e9;
/**
 * A debit as Redis stores it: a whole number no larger than `Number.MAX_SAFE_INTEGER` (about 9
 * million dollars in nano-dollars), so an absurd usage or price spends the budget instead of
 * failing the `HINCRBY` and being owed for ever.
 */
const whole = (value: number): number => (Number.isFinite(value) && value > 0 ? Math.min(Math.round(value), Number.MAX_SAFE_INTEGER) : value > 0 ? Number.MAX_SAFE_INTEGER : 0);
const toNano = (usd: number) => whole(usd * NANO);
/** The longest TTL a window key gets: 100 years (`PEXPIRE` refuses a time it cannot add to now). */
const LONGEST_TTL_MS = 3_155_760_000_000;
/**
 * A window key's TTL in milliseconds: two windows, so a late debit still finds its window's key;
 * whole (`PEXPIRE` refuses a fraction, and a window of a day / 7 is one) and at most 100 years.
 */
const windowTtl = (window: number): number => Math.min(Math.ceil(window * 2), LONGEST_TTL_MS);

/** What this process has debited in one window: everything it spent, or everything Redis confirmed. */
interface WindowTotals {
  readonly windowKey: string;
  readonly nanoUsd: number;
  readonly tokens: number;
}

/**
 * Keeps a shared budget's spending in Redis. Each debit sends, for the current window's key, the
 * running total this process has spent in that window, and one Lua script adds only what the key
 * has not yet seen from this process (kept in a field of the hash). A debit sent twice (the client
 * resending a command whose reply a dropped connection lost) or one that failed and is carried by
 * the next is therefore counted exactly once. Until Redis confirms it, what this process spent is
 * counted by `spent()`, which also waits for this process's pending debits first; once a window has
 * ended its unconfirmed spending is dropped (no one reads an ended window).
 */
export function budgetLedger(options: BudgetLedgerOptions): BudgetLedger {
  const { redis, key, window, timeoutMs, report } = options;
  const pending = new Set<Promise<void>>();
  /** Names this process's running totals in the budget's hash. */
  const debitor = randomUUID();
  const windowKey = () => (window > 0 ? `${key}:${Math.floor(Date.now() / window)}` : key);
  const zero = (windowKey: string): WindowTotals => ({ windowKey, nanoUsd: 0, tokens: 0 });
  let debited = zero(windowKey());
  let confirmed = debited;
  /** What this process spent in the current window and Redis has not confirmed. */
  const unconfirmed = (current: string) =>
    debited.windowKey === current && confirmed.windowKey === current ? { nanoUsd: debited.nanoUsd - confirmed.nanoUsd, tokens: debited.tokens - confirmed.tokens } : zero(current);

  // The debits started so far: ones that start later belong to calls still in flight.
  const settled = async () => {
    if (pending.size > 0) await Promise.allSettled(pending);
  };

  const spent = async (signal?: AbortSignal): Promise<BudgetSpent> => {
    await settled();
    const current = windowKey();
    const [nanoUsd, tokens] = (await boundedCall(() => readScript.run(redis, [current], []), { operation: 'shared-budget read', timeoutMs, signal })) as [number, number];
    const owed = unconfirmed(current);
    return { usd: (nanoUsd + owed.nanoUsd) / NANO, tokens: tokens + owed.tokens };
  };

  const store = (nanoUsd: number, tokens: number): Promise<void> => {
    const current = windowKey();
    if (debited.windowKey !== current) {
      debited = zero(current);
      confirmed = debited;
    }
    const total: WindowTotals = { windowKey: current, nanoUsd: whole(debited.nanoUsd + nanoUsd), tokens: whole(debited.tokens + tokens) };
    debited = total;
    const sent = debitScript.run(redis, [current], [debitor, total.nanoUsd, total.tokens, windowTtl(window)]).then(() => {
      if (confirmed.windowKey === current) confirmed = { windowKey: current, nanoUsd: Math.max(confirmed.nanoUsd, total.nanoUsd), tokens: Math.max(confirmed.tokens, total.tokens) };
    });
    // Waiting for the debit is bounded. One that failed is carried by the next (its running total).
    return boundedCall(() => sent, { operation: 'shared-budget debit', timeoutMs }).catch(report);
  };

  const debit = (usd: number, tokens: number): Promise<void> => {
    const stored = store(toNano(usd), whole(tokens)).finally(() => pending.delete(stored));
    pending.add(stored);
    return stored;
  };

  return { spent, debit, settled };
}
