import type { AgentEvents, Extension, ModelResponse } from '@keel/core';
import { AbortedError, type PreCheckRule, type ReliabilityScope } from '@keel/reliability';
import { RedisKeyError } from '../errors/redis-key-error';
import { RedisUnavailableError } from '../errors/redis-unavailable-error';
import { boundedCall } from '../redis/bounded-call';
import type { RedisClient } from '../redis/redis-client';
import { debitScript, readScript } from './budget-scripts';

/** What a shared budget allows; at least one limit. */
export interface SharedBudgetLimit {
  /** US dollars (needs the agent's `pricing`, so that calls carry a cost). */
  readonly usd?: number;
  /** Tokens: input of every sort plus output. */
  readonly tokens?: number;
}

/** Settings of {@link sharedBudget}. */
export interface SharedBudgetOptions {
  /** An ioredis client (`Redis` or `Cluster`). */
  readonly redis: RedisClient;
  /** The budget's Redis key: one budget per key (`tenant:acme`, `team:search:daily`…). */
  readonly key: string;
  readonly limit: SharedBudgetLimit;
  /**
   * Length of a budget window in milliseconds (e.g. 86 400 000 for a day): the budget starts
   * afresh in each window, aligned to the Unix epoch (UTC) by the workers' clocks. Default: one
   * budget for ever.
   */
  readonly window?: number;
  /** When Redis cannot be read: `closed` (default) refuses the call, `open` lets it through. */
  readonly whenUnavailable?: 'closed' | 'open';
  /** Longest wait for one Redis call. Default 1 000. */
  readonly timeoutMs?: number;
  /**
   * Told about every Redis failure (a read before a call, a debit after one): Redis unreachable,
   * or the budget key holding something else than a budget (`RedisKeyError`; calls are then
   * refused, whatever `whenUnavailable` says).
   */
  readonly onError?: (error: RedisUnavailableError | RedisKeyError) => void;
}

/** What a shared budget has spent in its current window. */
export interface BudgetSpent {
  readonly usd: number;
  readonly tokens: number;
}

/**
 * A fleet-wide budget. Attach it with `builder.use(budget)`: it adds its PreCheck rules (after any
 * given before, so a run-level `tokenBudget` listed first is checked first) and its debit listener.
 * Its parts are there for wiring by hand.
 */
export interface SharedBudget extends Extension {
  /**
   * PreCheck rules, in this order: `shared-budget-unavailable` (fails fast when Redis cannot be
   * read and `whenUnavailable` is `closed`) and `shared-budget` (fails fast once the budget is spent).
   */
  readonly preCheck: readonly PreCheckRule<ModelResponse>[];
  /** Debits a call's usage: a `model.response` listener (every attempt that answered, failed validation included). */
  readonly debit: (event: AgentEvents['model.response']) => Promise<void>;
  /** What the budget has spent in the current window (debits of this process not yet stored included). */
  spent(signal?: AbortSignal): Promise<BudgetSpent>;
  /** Resolves when every debit this process started has been stored (or has failed). */
  settled(): Promise<void>;
}

const NANO = 1e9;
/**
 * A debit as Redis stores it: a whole number no larger than `Number.MAX_SAFE_INTEGER` (about 9
 * million dollars in nano-dollars), so an absurd usage or price spends the budget instead of
 * failing the `HINCRBY` and being owed for ever.
 */
const whole = (value: number) => (Number.isFinite(value) && value > 0 ? Math.min(Math.round(value), Number.MAX_SAFE_INTEGER) : value > 0 ? Number.MAX_SAFE_INTEGER : 0);
const toNano = (usd: number) => whole(usd * NANO);

/**
 * One budget for a fleet of workers, kept in Redis. Every model call that answers is debited
 * atomically (`HINCRBY` in one Lua script), failed attempts included; before every attempt the
 * PreCheck rules read what is spent and refuse the call once the limit is reached, with
 * `ReliabilityFailFastError` kind `shared-budget`. A worker waits for its own pending debits
 * before it reads, so the overshoot is bounded by the calls in flight in the fleet when the limit
 * is crossed. When Redis cannot be reached the budget fails closed (kind
 * `shared-budget-unavailable`) unless `whenUnavailable` is `open`; debits that could not be
 * stored are kept and added to the next one. Works with the run-level `costBudget` /
 * `tokenBudget` rules: the same PreCheck phase and error, listed together in `preCheck`.
 *
 * Attach it with `Agent.create(…).use(budget)`; `await budget.spent()` reads what the fleet spent.
 */
export function sharedBudget(options: SharedBudgetOptions): SharedBudget {
  const { redis, key, limit, window = 0, whenUnavailable = 'closed', timeoutMs = 1_000, onError } = options;
  if (typeof key !== 'string' || key === '') throw new TypeError('sharedBudget: key must be a non-empty string');
  if (limit.usd === undefined && limit.tokens === undefined) throw new TypeError('sharedBudget: give limit.usd, limit.tokens or both');
  for (const [name, value] of Object.entries({ 'limit.usd': limit.usd ?? 0, 'limit.tokens': limit.tokens ?? 0, window, timeoutMs })) {
    if (!Number.isFinite(value) || value < 0) throw new TypeError(`sharedBudget: ${name} must be a finite number >= 0, got ${value}`);
  }
  const pending = new Set<Promise<void>>();
  /** Debits that could not be stored yet: added to the next one, and counted by `spent()`. */
  let unsynced = { nanoUsd: 0, tokens: 0 };
  /** What the unavailable rule read for a scope, for the spent rule that follows it. */
  const readings = new WeakMap<object, BudgetSpent>();

  const windowKey = () => (window > 0 ? `${key}:${Math.floor(Date.now() / window)}` : key);
  const report = (error: unknown) => {
    if (RedisUnavailableError.isInstance(error) || RedisKeyError.isInstance(error)) {
      try {
        onError?.(error);
      } catch {
        // An observer: it never changes what the budget does.
      }
    }
  };

  // The debits started so far: ones that start later belong to calls still in flight.
  const settled = async () => {
    if (pending.size > 0) await Promise.allSettled(pending);
  };

  const spent = async (signal?: AbortSignal): Promise<BudgetSpent> => {
    await settled();
    const [nanoUsd, tokens] = (await boundedCall(() => readScript.run(redis, [windowKey()], []), { operation: 'shared-budget read', timeoutMs, signal })) as [
      number,
      number,
    ];
    return { usd: (nanoUsd + unsynced.nanoUsd) / NANO, tokens: tokens + unsynced.tokens };
  };

  const store = (nanoUsd: number, tokens: number): Promise<void> => {
    const owed = { nanoUsd: whole(nanoUsd + unsynced.nanoUsd), tokens: whole(tokens + unsynced.tokens) };
    unsynced = { nanoUsd: 0, tokens: 0 };
    // Window keys live two windows, so a late debit still finds its window's key.
    const sent = debitScript.run(redis, [windowKey()], [owed.nanoUsd, owed.tokens, window * 2]).then(
      () => undefined,
      (error: unknown) => {
        // Refused for good (a client with an offline queue may instead send it when Redis is back):
        // kept, and added to the next debit.
        unsynced = { nanoUsd: unsynced.nanoUsd + owed.nanoUsd, tokens: unsynced.tokens + owed.tokens };
        throw error;
      },
    );
    // Waiting for the debit is bounded; its outcome, not the wait, decides whether it is owed again.
    return boundedCall(() => sent, { operation: 'shared-budget debit', timeoutMs }).catch(report);
  };

  const isSpent = (total: BudgetSpent) =>
    (limit.usd !== undefined && total.usd >= limit.usd) || (limit.tokens !== undefined && total.tokens >= limit.tokens);

  const unavailableRule: PreCheckRule<ModelResponse> = {
    kind: 'shared-budget-unavailable',
    label: `fleet budget "${key}" could not be read (fail closed)`,
    then: 'fail-fast',
    when: async (scope: ReliabilityScope<ModelResponse>) => {
      try {
        readings.set(scope, await spent(scope.signal));
        return false;
      } catch (error) {
        // An abort is the run's to report: the attempt that follows sees the signal and stops.
        if (AbortedError.isInstance(error)) return false;
        // A key that is not a budget cannot say what was spent: refused, whatever whenUnavailable says.
        if (RedisKeyError.isInstance(error)) {
          report(error);
          return true;
        }
        if (!RedisUnavailableError.isInstance(error)) throw error;
        report(error);
        return whenUnavailable === 'closed';
      }
    },
  };
  const spentRule: PreCheckRule<ModelResponse> = {
    kind: 'shared-budget',
    label: `fleet budget "${key}" is spent`,
    then: 'fail-fast',
    when: (scope) => {
      const reading = readings.get(scope);
      return reading !== undefined && isSpent(reading);
    },
  };

  const preCheck = Object.freeze([unavailableRule, spentRule]);
  const debit: SharedBudget['debit'] = (event) => {
    const tokens = whole(event.inputTokens + event.outputTokens + event.cacheReadTokens + event.cacheWriteTokens);
    const stored = store(toNano(event.costUsd ?? 0), tokens).finally(() => pending.delete(stored));
    pending.add(stored);
    if (limit.usd !== undefined && event.costUsd === undefined) {
      // The tokens are debited; the dollars cannot be. Reported (a `listener.error` event), never silent.
      return stored.then(() => {
        throw new TypeError(`sharedBudget "${key}": a usd limit needs the agent's pricing, and model "${event.model}" has no price; only tokens were debited`);
      });
    }
    return stored;
  };
  const attach: Extension = (builder) => builder.reliability({ preCheck }).on('model.response', debit);
  return Object.assign(attach, { preCheck, debit, spent, settled });
}
