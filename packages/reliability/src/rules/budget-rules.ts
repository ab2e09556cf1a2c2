import type { ReliabilityRule } from '../gate/rule';
import { totalTokens } from '../usage';

/** What a bad cap was, for the error (never NaN silently switching a budget off). */
const describe = (value: unknown) => (typeof value === 'number' ? String(value) : value === null ? 'null' : typeof value);

/** Settings of {@link costBudget}. */
interface CostBudgetOptions {
  /** Largest cost of the whole run, in US dollars. */
  readonly maxUsd: number;
  /** `halt` fails fast with `cost-budget`; `warn` calls `onWarn` and lets the run go on. Default halt. */
  readonly mode?: 'halt' | 'warn';
  readonly onWarn?: (spentUsd: number) => void;
}

/**
 * A PreCheck rule capping the run's cost (needs a pricing table). In `halt` mode the next attempt
 * is not made once the cap is reached; in `warn` mode `onWarn` is told before every attempt made
 * over the cap and the rule never matches. Stateless, so one rule serves concurrent runs.
 * @throws {TypeError} when `maxUsd` is not a finite number >= 0 (a NaN cap would never match).
 */
export function costBudget<TResponse = unknown>(options: CostBudgetOptions): ReliabilityRule<TResponse> & { then: 'fail-fast' } {
  const maxUsd: unknown = (options as Partial<CostBudgetOptions> | undefined)?.maxUsd;
  if (!(typeof maxUsd === 'number' && Number.isFinite(maxUsd) && maxUsd >= 0)) throw new TypeError(`costBudget needs { maxUsd }: a finite number >= 0, got ${describe(maxUsd)}`);
  const mode = options.mode ?? 'halt';
  return {
    kind: 'cost-budget',
    label: `run cost reached $${options.maxUsd}`,
    then: 'fail-fast',
    when: (scope) => {
      const spent = scope.usage.run.costUsd ?? 0;
      if (spent < options.maxUsd) return false;
      if (mode === 'halt') return true;
      options.onWarn?.(spent);
      return false;
    },
  };
}

/**
 * A PreCheck rule capping the run's total tokens (input of every sort plus output).
 * @throws {TypeError} when `maxTokens` is not a finite number >= 0 (a NaN cap would never match).
 */
export function tokenBudget<TResponse = unknown>(maxTokens: number): ReliabilityRule<TResponse> & { then: 'fail-fast' } {
  if (!(typeof maxTokens === 'number' && Number.isFinite(maxTokens) && maxTokens >= 0)) throw new TypeError(`tokenBudget needs a token count: a finite number >= 0, got ${describe(maxTokens)}`);
  return {
    kind: 'token-budget',
    label: `run used ${maxTokens} tokens`,
    then: 'fail-fast',
    when: (scope) => totalTokens(scope.usage.run) >= maxTokens,
  };
}
