import type { ErrorKind } from '../error-kind';
import { TRANSIENT_ERROR_KINDS } from '../error-kind';
import type { ReliabilityRule } from '../gate/rule';

/**
 * A PostDecide rule failing over to the next configured provider (`retry-other`) on the given
 * failure kinds, while another provider is left; on the last provider it does not match, so later
 * rules (such as the default transient retries) apply. Providers are listed in `failover`.
 */
export function failoverRule<TResponse = unknown>(kinds: readonly ErrorKind[] = TRANSIENT_ERROR_KINDS): ReliabilityRule<TResponse> {
  return {
    kind: 'provider-failover',
    label: 'fail over to the next provider',
    then: 'retry-other',
    when: (scope) => kinds.includes(scope.errorKind) && scope.providerIndex + 1 < scope.providerCount,
  };
}
