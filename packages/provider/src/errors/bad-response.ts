import { ProviderError } from './provider-error';

/**
 * A response that breaks the vendor's format: a `bad-response` {@link ProviderError}, retried like
 * a server fault. `label` starts the message (default: the provider's name).
 */
export function badResponse(provider: string, problem: string, label: string = provider): ProviderError {
  return new ProviderError({ message: `${label}: the response is malformed: ${problem}`, errorKind: 'bad-response', provider });
}

/** `a string`, `null`, `missing`, `a list`: what a field was, without its value (for {@link badResponse}). */
export function shapeOf(value: unknown): string {
  if (value === undefined) return 'missing';
  if (value === null) return 'null';
  return Array.isArray(value) ? 'a list' : `a ${typeof value}`;
}
