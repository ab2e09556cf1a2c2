import type { ReliabilityScope } from './gate/scope';

/**
 * True when the last `n` validation failures have the same signature (see `failureSignature`:
 * stage, parse defect, paths and kinds, and for opaque issues the message with values masked):
 * the model is repeating the same mistake.
 */
export function lastNValidationErrorsMatch(scope: Pick<ReliabilityScope, 'validationErrorHistory'>, n = 2): boolean {
  const history = scope.validationErrorHistory;
  if (n < 2 || history.length < n) return false;
  const last = history.slice(-n);
  return last.every((signature) => signature === last[0]);
}

/**
 * True when the number of validation issues has not gone down over the last `n` validation
 * failures: feedback is not making progress, even if the issues differ.
 */
export function noValidationProgress(scope: Pick<ReliabilityScope, 'history'>, n = 3): boolean {
  const counts = scope.history.filter((entry) => entry.issueCount > 0).map((entry) => entry.issueCount);
  if (n < 2 || counts.length < n) return false;
  const window = counts.slice(-n);
  const first = window[0] as number;
  return window.every((count) => count >= first);
}
