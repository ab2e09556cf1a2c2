import type { ErrorKind } from '@keel/reliability';

/** The failure kinds a vendor error type can name. */
export type ErrorTypeKind = Extract<ErrorKind, 'rate-limit' | 'overloaded' | 'server-error' | 'timeout' | 'auth' | 'bad-request'>;

/**
 * Vendor error types, one table for every adapter: Anthropic's and OpenAI's error `type`
 * (snake_case) and Google's RPC `status` (UPPER_CASE).
 */
const KIND_OF_ERROR_TYPE: Readonly<Record<string, ErrorTypeKind>> = {
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
  RESOURCE_EXHAUSTED: 'rate-limit',
  UNAVAILABLE: 'overloaded',
  INTERNAL: 'server-error',
  DEADLINE_EXCEEDED: 'timeout',
  UNAUTHENTICATED: 'auth',
  PERMISSION_DENIED: 'auth',
  INVALID_ARGUMENT: 'bad-request',
  FAILED_PRECONDITION: 'bad-request',
};

/**
 * For provider authors: the failure kind a vendor error type names, where there is no HTTP
 * status to read (an error body's `type`, a stream's `error` event, Google's RPC `status`):
 * `rate_limit_error` / `RESOURCE_EXHAUSTED` → `rate-limit`, `overloaded_error` / `UNAVAILABLE` →
 * `overloaded`, and so on; `undefined` for a type it does not know (inherited names such as
 * `toString` included).
 */
export function kindFromErrorType(type: string): ErrorTypeKind | undefined {
  return Object.hasOwn(KIND_OF_ERROR_TYPE, type) ? KIND_OF_ERROR_TYPE[type] : undefined;
}
