import type { ModelResponse } from '@keel/core';
import { AbortedError, type PreCheckRule, type ReliabilityScope } from '@keel/reliability';
import { RedisError } from '../errors/redis-error';
import type { BudgetSpent } from './budget-ledger';

/** What a shared budget allows; at least one limit. */
export interface SharedBudgetLimit {
  /** US dollars (needs the agent's `pricing`, so that calls carry a cost). */
  readonly usd?: number;
  /** Tokens: input of every sort plus output. */
  readonly tokens?: number;
}

/** What the PreCheck rules of a shared budget judge with. */
export interface BudgetRulesOptions {
  /** The budget's key, named in the rules' labels. */
  readonly key: string;
  readonly limit: SharedBudgetLimit;
  /** When Redis cannot be read: `closed` refuses the call, `open` lets it through. */
  readonly whenUnavailable: 'closed' | 'open';
  /** Reads what the budget has spent. */
  readonly spent: (signal?: AbortSignal) => Promise<BudgetSpent>;
  /** Told about every Redis failure of a read. */
  readonly report: (error: unknown) => void;
}

/** Whether `total` has reached one of the limits. */
function isSpent(limit: SharedBudgetLimit, total: BudgetSpent): boolean {
  return (limit.usd !== undefined && total.usd >= limit.usd) || (limit.tokens !== undefined && total.tokens >= limit.tokens);
}

/**
 * The PreCheck rules of a shared budget, in this order: `shared-budget-unavailable` reads what is
 * spent and fails fast when it cannot (Redis unreachable and `whenUnavailable` `closed`, or the key
 * not a budget), then `shared-budget` fails fast when that reading has reached the limit.
 */
export function budgetRules(options: BudgetRulesOptions): readonly PreCheckRule<ModelResponse>[] {
  const { key, limit, whenUnavailable, spent, report } = options;
  /** What the unavailable rule read for a scope, for the spent rule that follows it. */
  const readings = new WeakMap<object, BudgetSpent>();
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
        if (!RedisError.isInstance(error)) throw error;
        if (error.problem === 'key') {
          report(error);
          return true;
        }
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
      return reading !== undefined && isSpent(limit, reading);
    },
  };
  return Object.freeze([unavailableRule, spentRule]);
}
