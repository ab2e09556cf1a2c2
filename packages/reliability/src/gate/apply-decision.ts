import { isValidationErrorKind } from '../error-kind';
import { failureSignature } from './failure-signature';
import type { Decision } from './decision';
import type { GateMemory } from './gate-memory';
import { rejectedSummary } from './policy';

/**
 * Applies a decision to the gate's memory: the one place the policy's changes are made. A
 * `rejection` turns the latest attempt into that `rule-rejected` failure; a retry readies the
 * provider and the feedback to carry (a failure without feedback, feedback off, sends none; a
 * provider error keeps the pending one); `continue-output` readies the cut output to continue.
 */
export function applyDecision<TResponse>(memory: GateMemory<TResponse>, decision: Decision): void {
  const { rejection } = decision;
  if (rejection) {
    const last = memory.history.length - 1;
    const summary = memory.history[last];
    if (summary) memory.history[last] = rejectedSummary(summary);
    memory.signatures.push(failureSignature(rejection));
    memory.lastKind = 'rule-rejected';
    memory.lastFailure = rejection;
  }
  switch (decision.type) {
    case 'retry':
    case 'retry-other': {
      const failed = isValidationErrorKind(memory.lastKind);
      if (decision.type === 'retry-other') memory.providerIndex = decision.provider;
      if (decision.feedback) memory.feedback = decision.feedback;
      else if (failed) memory.feedback = undefined;
      // A new output is asked for (a transient failure of a continuation retries the continuation).
      if (failed || decision.feedback) {
        memory.continuation = undefined;
        memory.continuations = 0;
      }
      memory.recovery = decision.type === 'retry-other' ? 'retry-other' : decision.feedback ? 'feedback' : 'retry';
      return;
    }
    case 'continue-output':
      memory.continuation = decision.partial;
      memory.continuations++;
      memory.recovery = 'continuation';
      return;
    default:
      return;
  }
}
