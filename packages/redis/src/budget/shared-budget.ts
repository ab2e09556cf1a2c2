import type { AgentEvents, Extension, ModelResponse } from '@keel/core';
import type { PreCheckRule } from '@keel/reliability';
import { RedisError } from '../errors/redis-error';
import type { RedisClient } from '../redis/redis-client';
import { notifyObserver } from '../support/notify-observer';
import { requireNonNegative } from '../support/require-non-negative';
import { type BudgetSpent, budgetLedger } from './budget-ledger';
import { budgetRules, type SharedBudgetLimit } from './budget-rules';

/** Settings of {@link sharedBudget}. */
export interface SharedBudgetOptions {
  /** An ioredis client (`Redis` or `Cluster`). */
  readonly redis: RedisClient;
  /**
   * The budget's Redis key: one budget per key (`tenant:acme`, `team:search:daily`…). With a
   * `window`, each window's key is `<key>:<window number>` (`tenant:20420` for a day): give no other
   * budget a key of that form, or the two share their spending.
   */
  readonly key: string;
  readonly limit: SharedBudgetLimit;
  /**
   * Length of a budget window in milliseconds (e.g. 86 400 000 for a day): the budget starts
   * afresh in each window, aligned to the Unix epoch (UTC) by the workers' clocks. Default: one
   * budget for ever. At least 1 when given (`TypeError` otherwise).
   */
  readonly window?: number;
  /** When Redis cannot be read: `closed` (default) refuses the call, `open` lets it through. */
  readonly whenUnavailable?: 'closed' | 'open';
  /** Longest wait for one Redis call. Default 1 000. */
  readonly timeoutMs?: number;
  /**
   * Told about every Redis failure (a read before a call, a debit after one): Redis unreachable,
   * or the budget key holding something else than a budget (a `RedisError` `key`; calls are then
   * refused, whatever `whenUnavailable` says).
   */
  readonly onError?: (error: RedisError) => void;
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
  requireNonNegative('sharedBudget', { 'limit.usd': limit.usd ?? 0, 'limit.tokens': limit.tokens ?? 0, window, timeoutMs });
  // A window shorter than a millisecond numbers the window from an overflowing division (`key:Infinity` for ever).
  if (window > 0 && window < 1) throw new TypeError(`sharedBudget: window must be 0 (no window) or at least 1 ms, got ${window}`);
  const report = (error: unknown) => {
    if (RedisError.isInstance(error)) notifyObserver(onError, error);
  };
  const ledger = budgetLedger({ redis, key, window, timeoutMs, report });
  const { spent, settled } = ledger;
  const preCheck = budgetRules({ key, limit, whenUnavailable, spent, report });
  const debit: SharedBudget['debit'] = (event) => {
    const stored = ledger.debit(event.costUsd ?? 0, event.inputTokens + event.outputTokens + event.cacheReadTokens + event.cacheWriteTokens);
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
