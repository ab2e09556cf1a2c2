import { readField } from '@keel/reliability/internal';
import { redactSecrets } from '../kit/redact-secrets';
import { requestIdOf } from './request-id-of';

/**
 * What a {@link ProviderError} keeps of the underlying failure: never the vendor's error object,
 * its headers, request or body (they can hold secrets and whole prompts), only these fields,
 * with secrets redacted.
 */
export interface ProviderErrorCause {
  /** The underlying error's name, e.g. `APIError`, `AI_APICallError`. */
  readonly name: string;
  readonly message: string;
  /** The HTTP status, when the failure had one. */
  readonly status?: number;
  /** The vendor's request id (`request-id`, `x-request-id`), for support tickets. */
  readonly requestId?: string;
}

/** Text of any value, never throwing. */
function printable(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'symbol') return value.toString();
  try {
    return String(value);
  } catch {
    return '[unprintable value]';
  }
}

/** Reduces any cause to a {@link ProviderErrorCause}, `secrets` redacted. Never throws. */
export function reduceCause(cause: unknown, secrets: readonly string[]): ProviderErrorCause {
  const rawName = readField(cause, 'name');
  const rawMessage = readField(cause, 'message');
  const name = typeof rawName === 'string' && rawName !== '' ? rawName : 'Error';
  const message = rawMessage === undefined ? printable(cause) : printable(rawMessage);
  const reduced: { -readonly [K in keyof ProviderErrorCause]: ProviderErrorCause[K] } = { name: redactSecrets(name, secrets), message: redactSecrets(message, secrets) };
  const status = readField(cause, 'status') ?? readField(cause, 'statusCode');
  if (typeof status === 'number' && Number.isFinite(status)) reduced.status = status;
  const requestId = requestIdOf(cause);
  if (requestId !== undefined) reduced.requestId = redactSecrets(requestId, secrets);
  return Object.freeze(reduced);
}
