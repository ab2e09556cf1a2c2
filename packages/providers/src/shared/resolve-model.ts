import { ProviderError } from '@keel/provider';

/**
 * The model id of a call. The model id lives in one place, the agent (`Agent.create({ model })`),
 * which puts it on every request; a request without one is a `bad-request` {@link ProviderError}.
 */
export function resolveModel(requestModel: string, provider: string): string {
  if (requestModel.trim() === '') {
    throw new ProviderError({ message: `No model id: the request to the ${provider} provider names none`, errorKind: 'bad-request', provider });
  }
  return requestModel;
}
