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

/**
 * Keeps a shared budget's spending in Redis: each debit is added atomically (`HINCRBY` in one Lua
 * script) to the current window's key; a debit that could not be stored is kept and added to the
 * next one, and a read waits for this process's pending debits first.
 */
export function budgetLedger(options: BudgetLedgerOptions): BudgetLedger {
  const { redis, key, window, timeoutMs, report } = options;
  const pending = new Set<Promise<void>>();
  const windowKey = () => (window > 0 ? `${key}:${Math.floor(Date.now() / window)}` : key);
  /**
   * Debits that could not be stored yet, with the window they were spent in: added to the next
   * debit and counted by `spent()` while that window lasts, and dropped once it is over (no one
   * reads an ended window, and they must not spend the next one).
   */
  let unsynced = { windowKey: windowKey(), nanoUsd: 0, tokens: 0 };
  /** What is owed in the current window (nothing once the window it was spent in has ended). */
  const owedNow = (current: string) => (unsynced.windowKey === current ? unsynced : { windowKey: current, nanoUsd: 0, tokens: 0 });

  // The debits started so far: ones that start later belong to calls still in flight.
  const settled = async () => {
    if (pending.size > 0) await Promise.allSettled(pending);
  };

  const spent = async (signal?: AbortSignal): Promise<BudgetSpent> => {
    await settled();
    const current = windowKey();
    const [nanoUsd, tokens] = (await boundedCall(() => readScript.run(redis, [current], []), { operation: 'shared-budget read', timeoutMs, signal })) as [number, number];
    const owed = owedNow(current);
    return { usd: (nanoUsd + owed.nanoUsd) / NANO, tokens: tokens + owed.tokens };
  };

  const store = (nanoUsd: number, tokens: number): Promise<void> => {
    const current = windowKey();
    const before = owedNow(current);
    const owed = { windowKey: current, nanoUsd: whole(nanoUsd + before.nanoUsd), tokens: whole(tokens + before.tokens) };
    unsynced = { windowKey: current, nanoUsd: 0, tokens: 0 };
    const sent = debitScript.run(redis, [current], [owed.nanoUsd, owed.tokens, windowTtl(window)]).then(
      () => undefined,
      (error: unknown) => {
        // Refused for good (a client with an offline queue may instead send it when Redis is back):
        // kept, and added to the next debit of the same window (dropped if that window has ended).
        if (windowKey() !== current) throw error;
        const still = owedNow(current);
        unsynced = { windowKey: current, nanoUsd: whole(still.nanoUsd + owed.nanoUsd), tokens: whole(still.tokens + owed.tokens) };
        throw error;
      },
    );
    // Waiting for the debit is bounded; its outcome, not the wait, decides whether it is owed again.
    return boundedCall(() => sent, { operation: 'shared-budget debit', timeoutMs }).catch(report);
  };

  const debit = (usd: number, tokens: number): Promise<void> => {
    const stored = store(toNano(usd), whole(tokens)).finally(() => pending.delete(stored));
    pending.add(stored);
    return stored;
  };

  return { spent, debit, settled };
}
