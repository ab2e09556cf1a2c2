import type { ProviderError } from '../errors/provider-error';
import { mapSdkError, type SdkErrorClasses } from '../shared/map-sdk-error';
import type { StrictParts } from '../shared/strict-parts';
import { anthropicSchemaRejection } from './anthropic-schema-rejection';

/**
 * Maps anything the Anthropic SDK (or a stream of it) threw to a {@link ProviderError}; `classes`
 * come from the loaded SDK. With `sent` (the strict schemas of the request), a 400 that refused
 * one of them carries `schemaRejected`.
 */
export function mapAnthropicError(
  error: unknown,
  context: { readonly provider: string; readonly signal?: AbortSignal | undefined; readonly secrets?: readonly string[]; readonly classes: SdkErrorClasses; readonly sent?: StrictParts | undefined },
): ProviderError {
  const { sent } = context;
  return mapSdkError(error, {
    provider: context.provider,
    label: 'Anthropic',
    signal: context.signal,
    secrets: context.secrets,
    classes: context.classes,
    schemaRejection: sent === undefined ? undefined : (thrown) => anthropicSchemaRejection(thrown, sent),
  });
}
