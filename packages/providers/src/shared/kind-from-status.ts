import type { ProviderErrorKind } from '../errors/provider-error';

/**
 * Maps an HTTP status to a failure kind: 429 rate-limit, 529 overloaded, 408 timeout,
 * 401/403 auth, other 4xx bad-request, 5xx server-error.
 */
export function kindFromStatus(status: number): ProviderErrorKind {
  if (status === 429) return 'rate-limit';
  if (status === 529) return 'overloaded';
  if (status === 408) return 'timeout';
  if (status === 401 || status === 403) return 'auth';
  if (status >= 500) return 'server-error';
  if (status >= 400) return 'bad-request';
  return 'unknown';
}
