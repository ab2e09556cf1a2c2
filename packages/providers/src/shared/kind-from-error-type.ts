import type { ProviderErrorKind } from '../errors/provider-error';

const kindsByType: Readonly<Record<string, ProviderErrorKind>> = {
  rate_limit_error: 'rate-limit',
  rate_limit_exceeded: 'rate-limit',
  overloaded_error: 'overloaded',
  api_error: 'server-error',
  server_error: 'server-error',
  timeout_error: 'timeout',
  authentication_error: 'auth',
  permission_error: 'auth',
  invalid_request_error: 'bad-request',
  not_found_error: 'bad-request',
  request_too_large: 'bad-request',
};

/**
 * Maps a vendor error `type` (as sent in an error body or a stream's `error` event, where there is
 * no HTTP status) to a failure kind; `undefined` for types it does not know.
 */
export function kindFromErrorType(type: string): ProviderErrorKind | undefined {
  return Object.hasOwn(kindsByType, type) ? kindsByType[type] : undefined;
}
