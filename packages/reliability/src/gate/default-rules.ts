import { matchesFailuresOnly } from './failure-only';
import { exponentialBackoff, type ExponentialBackoffOptions } from '../backoff';
import { type ErrorKind, TRANSIENT_ERROR_KINDS } from '../error-kind';
import type { ReliabilityRule } from './rule';
import { actionLoopRules } from '../rules/action-loop-rules';

/** Settings of {@link transientRetryRule}. */
interface TransientRetryOptions {
  /** Retries per gate run. Default 2. */
  readonly maxRetries?: number;
  /** Which kinds count as transient. Default rate-limit, overloaded, server-error, timeout, network. */
  readonly kinds?: readonly ErrorKind[];
  readonly backoff?: ExponentialBackoffOptions;
}

/**
 * Retries transient provider errors with exponential backoff and jitter (a provider's Retry-After
 * wins, capped by the gate). Counts only transient failures toward its budget.
 */
export function transientRetryRule<TResponse = unknown>(options: TransientRetryOptions = {}): ReliabilityRule<TResponse> {
  const { maxRetries = 2, kinds = TRANSIENT_ERROR_KINDS } = options;
  return matchesFailuresOnly({
    kind: 'transient-retry',
    label: `retry transient provider errors (up to ${maxRetries})`,
    then: 'retry',
    backoff: exponentialBackoff(options.backoff),
    when: (scope) =>
      kinds.includes(scope.errorKind) &&
      scope.history.filter((entry) => kinds.includes(entry.errorKind)).length <= maxRetries,
  });
}

/**
 * Stops once a transient failure's retries are used up, saying so
 * (`transient retries exhausted: 2 of 2`), rather than as an unhandled failure.
 */
function transientExhaustedRule<TResponse = unknown>(options: Pick<TransientRetryOptions, 'maxRetries' | 'kinds'> = {}): ReliabilityRule<TResponse> {
  const { maxRetries = 2, kinds = TRANSIENT_ERROR_KINDS } = options;
  return matchesFailuresOnly({
    kind: 'transient-retries-exhausted',
    label: `transient retries exhausted: ${maxRetries} of ${maxRetries}`,
    then: 'fail-fast',
    when: (scope) => kinds.includes(scope.errorKind) && scope.history.filter((entry) => kinds.includes(entry.errorKind)).length > maxRetries,
  });
}

/** Stops on any failure no earlier rule handled: the failure's kind names the stop. */
function failOnUnhandledRule<TResponse = unknown>(): ReliabilityRule<TResponse> {
  return matchesFailuresOnly({
    kind: 'unhandled-failure',
    label: 'no rule retries this failure',
    then: 'fail-fast',
    when: (scope) => scope.errorKind !== 'ok',
  });
}

/** Settings of {@link defaultRules}. */
export interface DefaultRulesOptions {
  /**
   * Include the default action-loop rules (`actionLoopRules()`). Default true. An agent or a
   * `runGate` call whose own rules include loop rules (of kind `action-loop`) leaves them out
   * itself: one loop rule set per agent, the one listed.
   */
  readonly actionLoops?: boolean;
}

/**
 * The rules in force when the user gives none, and appended after the user's own unless they
 * opt out: loops of actions across the run told to the model once, then stopped (`action-loop`,
 * see {@link actionLoopRules}; left out when the user lists loop rules of their own);
 * transient errors retried up to 2 times (then `transient-retries-exhausted`); `auth`,
 * `bad-request`, `refusal`, `truncated` and every other failure fail fast.
 */
export function defaultRules<TResponse = unknown>(options: DefaultRulesOptions = {}): ReliabilityRule<TResponse>[] {
  const loops = options.actionLoops === false ? [] : actionLoopRules<TResponse>();
  return [...loops, transientRetryRule<TResponse>(), transientExhaustedRule<TResponse>(), failOnUnhandledRule<TResponse>()];
}
