import { matchesFailuresOnly } from '../gate/failure-only';
import { type ErrorKind, isValidationErrorKind } from '../error-kind';
import type { ReliabilityRule } from '../gate/rule';
import { exponentialBackoff } from '../backoff';
import { STRICT_OUTPUT_DEFAULTS } from '../defaults';
import { defaultStuckLoopRule } from './stuck-loop-rules';

/** Failure kinds `retryOn` can name. */
/** Failure kinds `retryOn` can name: `rule` is a PostDecide rule's rejection of a valid answer (`rule-rejected`). */
export type RetryOnKind = 'schema' | 'parse' | 'rule' | 'timeout' | 'server-error' | 'rate-limit';

/** Settings of {@link strictOutputRules}. */
export interface StrictOutputRulesOptions {
  /** Feedback retries after the first attempt. Default 2 (3 attempts in all). */
  readonly maxRetries?: number;
  /** Which failures are retried within that budget. Default `['schema', 'parse', 'rule']`. */
  readonly retryOn?: readonly RetryOnKind[];
  /** Detect identical consecutive failures. Default true. */
  readonly stuckLoop?: boolean;
}

const kindOf: Readonly<Record<RetryOnKind, ErrorKind>> = {
  schema: 'schema-fail',
  parse: 'parse-fail',
  rule: 'rule-rejected',
  timeout: 'timeout',
  'server-error': 'server-error',
  'rate-limit': 'rate-limit',
};

/**
 * The rule set for validated output: stop on a stuck loop, retry with feedback while the budget
 * lasts, then fail fast with `schema-retry-exhausted`. The default when an output schema is set.
 * `strictOutputRules(3)` is `strictOutputRules({ maxRetries: 3 })`.
 */
export function strictOutputRules<TResponse = unknown>(options: number | StrictOutputRulesOptions = {}): ReliabilityRule<TResponse>[] {
  const { maxRetries = STRICT_OUTPUT_DEFAULTS.maxRetries, retryOn = ['schema', 'parse', 'rule'], stuckLoop = true } = typeof options === 'number' ? { maxRetries: options } : options;
  if (!Number.isInteger(maxRetries) || maxRetries < 0) throw new RangeError(`strictOutputRules: maxRetries must be a whole number >= 0, got ${maxRetries}`);
  const kinds = retryOn.map((name) => kindOf[name]);
  const counted = (scope: { history: readonly { errorKind: ErrorKind }[] }) =>
    scope.history.filter((entry) => kinds.includes(entry.errorKind)).length;
  const rules: ReliabilityRule<TResponse>[] = stuckLoop ? [defaultStuckLoopRule] : [];
  rules.push(
    {
      kind: 'schema-retry',
      label: `retry with feedback (up to ${maxRetries})`,
      then: 'retry',
      backoff: (scope) => (isValidationErrorKind(scope.errorKind) ? 0 : exponentialBackoff()(scope)),
      when: (scope) => kinds.includes(scope.errorKind) && counted(scope) <= maxRetries,
    },
    {
      kind: 'schema-retry-exhausted',
      label: `output still invalid after ${maxRetries} retries`,
      then: 'fail-fast',
      when: (scope) => isValidationErrorKind(scope.errorKind) && kinds.includes(scope.errorKind),
    },
    {
      kind: 'schema-not-retried',
      label: 'this kind of output failure is not in retryOn',
      then: 'fail-fast',
      when: (scope) => isValidationErrorKind(scope.errorKind),
    },
  );
  // None of them matches a successful attempt.
  for (const rule of rules) matchesFailuresOnly(rule);
  return rules;
}
