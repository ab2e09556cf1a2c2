import type { ReliabilityRule } from '@keel/reliability';
import { matchesFailuresOnly } from '@keel/reliability/internal';
import type { ModelResponse } from '@keel/provider';

/**
 * The first rule of every call of an agent: a provider's 400 that refused a schema the request
 * sent (native format, answer tool or strict tools) has lowered the output mode and is classified
 * `schema-refused`, so the same run retries at once a level down, within `maxAttempts`. Any other
 * 400 is a `bad-request`, left to the rules after it.
 */
export const schemaDowngradeRule: ReliabilityRule<ModelResponse> = matchesFailuresOnly({
  kind: 'schema-downgrade',
  label: 'the provider refused a schema: retry in the next output mode',
  then: 'retry' as const,
  backoff: 0,
  when: (scope) => scope.errorKind === 'schema-refused',
});
