import { APIConnectionError, APIConnectionTimeoutError, APIUserAbortError } from 'openai';
import type { ProviderError } from '../errors/provider-error';
import { mapSdkError } from '../shared/map-sdk-error';

/** Maps anything the OpenAI SDK (or a stream of it) threw to a {@link ProviderError}. */
export function mapOpenAIError(error: unknown, context: { readonly provider: string; readonly signal?: AbortSignal | undefined; readonly secrets?: readonly string[] }): ProviderError {
  return mapSdkError(error, {
    provider: context.provider,
    label: 'OpenAI',
    signal: context.signal,
    secrets: context.secrets,
    classes: { userAbort: APIUserAbortError, connectionTimeout: APIConnectionTimeoutError, connection: APIConnectionError },
  });
}
