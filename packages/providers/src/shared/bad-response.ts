import { ProviderError } from '../errors/provider-error';

/** A response body that breaks the vendor's format: kind `bad-response`, retried like a server error. */
export function badResponse(provider: string, label: string, problem: string): ProviderError {
  return new ProviderError({ message: `${label} response is malformed: ${problem}`, errorKind: 'bad-response', provider });
}

/** `a string`, `null`, `missing`: what a field was, without its value. */
export function shapeOf(value: unknown): string {
  if (value === undefined) return 'missing';
  if (value === null) return 'null';
  return Array.isArray(value) ? 'a list' : `a ${typeof value}`;
}
