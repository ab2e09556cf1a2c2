import { matchesFailuresOnly } from '../gate/failure-only';
import { isValidationErrorKind } from '../error-kind';
import type { ReliabilityRule } from '../gate/rule';
import { lastNValidationErrorsMatch, noValidationProgress } from '../stuck-loop';

/** Fails fast with `schema-stuck-loop` when the last `n` validation failures have the same issue set. */
export function stuckLoopRule<TResponse = unknown>(n = 2): ReliabilityRule<TResponse> {
  return matchesFailuresOnly({
    kind: 'schema-stuck-loop',
    label: `the last ${n} validation failures had the same issues`,
    then: 'fail-fast',
    when: (scope) => isValidationErrorKind(scope.errorKind) && lastNValidationErrorsMatch(scope, n),
  });
}

/**
 * The stuck-loop rule as a value, for rule lists: fails fast with `schema-stuck-loop` when the
 * last two validation failures have the same issue set. `stuckLoopRule(n)` makes other windows.
 */
export const defaultStuckLoopRule: ReliabilityRule = Object.freeze(stuckLoopRule(2));

/** Fails fast with `schema-no-progress` when the issue count has not shrunk over the last `n` validation failures. */
export function noProgressRule<TResponse = unknown>(n = 3): ReliabilityRule<TResponse> {
  return matchesFailuresOnly({
    kind: 'schema-no-progress',
    label: `the issue count did not shrink over ${n} attempts`,
    then: 'fail-fast',
    when: (scope) => isValidationErrorKind(scope.errorKind) && noValidationProgress(scope, n),
  });
}
