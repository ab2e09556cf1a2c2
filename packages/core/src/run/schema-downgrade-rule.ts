import type { ReliabilityRule } from '@keel/reliability';
import { matchesFailuresOnly } from '@keel/reliability/internal';
import type { ModelResponse } from '../model/model-provider-v1';

/** Provider errors that refused a schema and lowered the target's output mode. */
const downgraded = new WeakSet<object>();

/** Marks a provider error whose refusal lowered the output mode: the next attempt is sent a level down. */
export function markDowngraded(error: unknown): void {
  if (typeof error === 'object' && error !== null) downgraded.add(error);
}

/**
 * The first rule of every call of an agent: a provider's 400 that refused a schema the request
 * sent (native format, answer tool or strict tools) has lowered the output mode, so the same run
 * retries at once a level down, within `maxAttempts`. Any other 400 is left to the rules after it.
 */
export const schemaDowngradeRule: ReliabilityRule<ModelResponse> = matchesFailuresOnly({
  kind: 'schema-downgrade',
  label: 'the provider refused a schema: retry in the next output mode',
  then: 'retry' as const,
  backoff: 0,
  when: (scope) => scope.errorKind === 'bad-request' && typeof scope.error === 'object' && scope.error !== null && downgraded.has(scope.error),
});
