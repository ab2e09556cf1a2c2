import type { ProviderError } from '../errors/provider-error';
import { mapSdkError, type SdkErrorClasses } from '../shared/map-sdk-error';

/** Maps anything the Anthropic SDK (or a stream of it) threw to a {@link ProviderError}; `classes` come from the loaded SDK. */
export function mapAnthropicError(error: unknown, context: { readonly provider: string; readonly signal?: AbortSignal | undefined; readonly secrets?: readonly string[]; readonly classes: SdkErrorClasses }): ProviderError {
  return mapSdkError(error, {
    provider: context.provider,
    label: 'Anthropic',
    signal: context.signal,
    secrets: context.secrets,
    classes: context.classes,
  });
}
