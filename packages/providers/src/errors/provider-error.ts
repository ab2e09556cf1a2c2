import type { ErrorKind } from '@keel/core';
import type { SchemaRejection } from '@keel/core/internal';
import { hasMarker, isTransientErrorKind, KeelError, redactSecrets } from '@keel/core/internal';

const marker = Symbol.for('keel.error.ProviderError');

/** The kinds of failure a provider call can end in. */
export type ProviderErrorKind = Extract<
  ErrorKind,
  'rate-limit' | 'overloaded' | 'server-error' | 'timeout' | 'network' | 'auth' | 'bad-request' | 'context-overflow' | 'bad-response' | 'aborted' | 'unknown'
>;

/** Which strict schema a provider refused with a `bad-request`: `output`, `tool` or `both`. */
export type { SchemaRejection };

/**
 * What a {@link ProviderError} keeps of the underlying failure: never the SDK's error object, its
 * headers, request or body — only these fields, with secrets redacted.
 */
export interface ProviderErrorCause {
  readonly name: string;
  readonly message: string;
  /** The HTTP status, when the failure had one. */
  readonly status?: number;
  /** The vendor's request id, for support tickets. */
  readonly requestId?: string;
}

/** Constructor fields of {@link ProviderError}. */
export interface ProviderErrorOptions {
  /** Human-readable description of what went wrong. */
  readonly message: string;
  /** What kind of failure this is; the gate decides on retries from it. */
  readonly errorKind: ProviderErrorKind;
  /** The HTTP status of the response, when there was one. */
  readonly status?: number;
  /** The delay the server asked for before another attempt (`retry-after-ms` / `retry-after`). */
  readonly retryAfterMs?: number;
  /** The provider's name, e.g. `anthropic`, `openai`. */
  readonly provider: string;
  /** The underlying error (usually the vendor SDK's); only its name, message, status and request id are kept. */
  readonly cause?: unknown;
  /** Strings (the API key) replaced by `[redacted]` wherever they appear in the message and cause. */
  readonly secrets?: readonly string[];
  /** Set on a `bad-request` that refused a strict schema the request sent; see {@link SchemaRejection}. */
  readonly schemaRejected?: SchemaRejection;
}

function read(value: object, key: string): unknown {
  try {
    return (value as Record<string, unknown>)[key];
  } catch {
    return undefined;
  }
}

/** The request id of an SDK error: its `requestID`, or a `request-id` / `x-request-id` header. */
function requestIdOf(cause: object): string | undefined {
  const direct = read(cause, 'requestID') ?? read(cause, 'requestId') ?? read(cause, 'request_id');
  if (typeof direct === 'string' && direct !== '') return direct;
  const headers = read(cause, 'headers');
  const get = headers && typeof headers === 'object' ? read(headers, 'get') : undefined;
  if (typeof get !== 'function') return undefined;
  try {
    const header: unknown = get.call(headers, 'request-id') ?? get.call(headers, 'x-request-id');
    return typeof header === 'string' && header !== '' ? header : undefined;
  } catch {
    return undefined;
  }
}

/** Text of any value, never throwing. */
function textOf(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'symbol') return value.toString();
  try {
    return String(value);
  } catch {
    return '[unprintable value]';
  }
}

/** Reduces any cause to {@link ProviderErrorCause}, secrets redacted. */
function reduceCause(cause: unknown, secrets: readonly string[]): ProviderErrorCause {
  const isObject = typeof cause === 'object' && cause !== null;
  const rawName = isObject ? read(cause, 'name') : undefined;
  const rawMessage = isObject ? read(cause, 'message') : undefined;
  const name = typeof rawName === 'string' && rawName !== '' ? rawName : 'Error';
  const message = rawMessage === undefined ? textOf(cause) : textOf(rawMessage);
  const reduced: { -readonly [K in keyof ProviderErrorCause]: ProviderErrorCause[K] } = { name: redactSecrets(name, secrets), message: redactSecrets(message, secrets) };
  if (typeof cause === 'object' && cause !== null) {
    const status = read(cause, 'status');
    if (typeof status === 'number' && Number.isFinite(status)) reduced.status = status;
    const requestId = requestIdOf(cause);
    if (requestId !== undefined) reduced.requestId = redactSecrets(requestId, secrets);
  }
  return Object.freeze(reduced);
}

/**
 * A model call failed. Every error a Keel provider throws is one of these: `errorKind` names the
 * failure exactly, `retryAfterMs` carries the server's requested delay, and `retryable` says
 * whether sending the same request again could succeed. Providers never retry on their own.
 * Its `cause` is a reduced record (name, message, status, request id), never the SDK's error with
 * its headers; the configured API key never appears in it.
 */
export class ProviderError extends KeelError {
  private readonly [marker] = true;
  override readonly name = 'ProviderError';
  /** What kind of failure this is. */
  readonly errorKind: ProviderErrorKind;
  /** The HTTP status, when a response arrived. */
  declare readonly status?: number;
  /** The delay the server asked for before another attempt, in milliseconds. */
  declare readonly retryAfterMs?: number;
  /** The provider that failed, e.g. `anthropic`. */
  readonly provider: string;
  /** True for the transient kinds (`TRANSIENT_ERROR_KINDS`): rate limits, overload, server errors, timeouts, network faults and malformed responses. */
  readonly retryable: boolean;

  /**
   * Set when the provider refused (HTTP 400, kind `bad-request`) a strict schema the request
   * sent: `output` (the native output format), `tool` (a strict tool's input schema) or `both`.
   * The schema was too large, too complex or used what the vendor's decoder does not accept; the
   * same request will fail again, but the same request without that strict schema (the prompt or
   * tool output mode, or the tools without `strict`) can succeed. Absent on every other error.
   */
  declare readonly schemaRejected?: SchemaRejection;

  /** What is kept of the underlying failure (never the SDK error itself). */
  declare readonly cause?: ProviderErrorCause;

  constructor({ message, errorKind, status, retryAfterMs, provider, cause, secrets = [], schemaRejected }: ProviderErrorOptions) {
    super({ message: redactSecrets(message, secrets), ...(cause === undefined ? {} : { cause: reduceCause(cause, secrets) }) });
    this.errorKind = errorKind;
    if (status !== undefined) this.status = status;
    if (retryAfterMs !== undefined) this.retryAfterMs = retryAfterMs;
    if (schemaRejected !== undefined) this.schemaRejected = schemaRejected;
    this.provider = provider;
    this.retryable = isTransientErrorKind(errorKind);
  }

  /** True for a `ProviderError` from any copy of this package (`instanceof` is not enough). */
  static isInstance(value: unknown): value is ProviderError {
    return hasMarker(value, marker);
  }
}
