import type { ErrorKind } from '../error-kind';
import { TRANSIENT_ERROR_KINDS } from '../error-kind';
import type { ReliabilityRule } from '../gate/rule';

/**
 * A PostDecide rule moving to the next configured provider on the given failure kinds, while
 * another provider is left; on the last provider it does not match, so later rules (such as the
 * default transient retries) apply.
 */
export function providerFallbackRule<TResponse = unknown>(
  kinds: readonly ErrorKind[] = TRANSIENT_ERROR_KINDS,
): ReliabilityRule<TResponse> {
  return {
    kind: 'provider-fallback',
    label: 'switch to the next provider',
    then: 'retry-other',
    when: (scope) => kinds.includes(scope.errorKind) && scope.providerIndex + 1 < scope.providerCount,
  };
}
