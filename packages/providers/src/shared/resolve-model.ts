import { ProviderError } from '../errors/provider-error';

/**
 * The model id of a call: the request's, else the provider's default. Throws a `bad-request`
 * {@link ProviderError} when neither names one.
 */
export function resolveModel(requestModel: string, defaultModel: string | undefined, provider: string): string {
  const model = requestModel !== '' ? requestModel : defaultModel;
  if (model === undefined || model === '') {
    throw new ProviderError({
      message: `No model id: the request names none and the ${provider} provider has no default \`model\``,
      errorKind: 'bad-request',
      provider,
    });
  }
  return model;
}
