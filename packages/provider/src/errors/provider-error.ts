import { type ErrorKind, KeelError } from '@keel/reliability';
import { hasMarker, isTransientErrorKind } from '@keel/reliability/internal';
import { redactSecrets } from '../kit/redact-secrets';
import type { SchemaRejection } from '../spec/model-provider-v1';
import { type ProviderErrorCause, reduceCause } from './provider-error-cause';

const marker = Symbol.for('keel.error.ProviderError');

/** The kinds of failure a provider call can end in. */
export type ProviderErrorKind = Extract<
  ErrorKind,
  'rate-limit' | 'overloaded' | 'server-error' | 'timeout' | 'network' | 'auth' | 'bad-request' | 'context-overflow' | 'bad-response' | 'aborted' | 'unknown'
>;

/** Constructor fields of {@link ProviderError}. */
export interface ProviderErrorOptions {
  /** Human-readable description of what went wrong. */
  readonly message: string;
  /** What kind of failure this is; the gate decides on retries from it. */
  readonly errorKind: ProviderErrorKind;
  /** The provider's name, e.g. `anthropic`, `openai`, `google.generative-ai`. */
  readonly provider: string;
  /** The HTTP status of the response, when there was one. */
  readonly status?: number;
  /** The delay the server asked for before another attempt (`retry-after-ms`, `retry-after`, a vendor's own field). */
  readonly retryAfterMs?: number;
  /**
   * False when the vendor said a transient-looking failure is not worth retrying; the gate then
   * does not retry it. Default: by kind (`TRANSIENT_ERROR_KINDS`).
   */
  readonly retryable?: boolean;
  /** The underlying error (usually the vendor SDK's); only its name, message, status and request id are kept. */
  readonly cause?: unknown;
  /** Strings (the API key) replaced by `[redacted]` wherever they appear in the message and cause. */
  readonly secrets?: readonly string[];
  /** Set on a `bad-request` that refused a strict schema the request sent; see {@link SchemaRejection}. */
  readonly schemaRejected?: SchemaRejection;
}

/**
 * A model call failed. Every error a Keel provider throws is one of these: `errorKind` names the
 * failure exactly, `retryAfterMs` carries the server's requested delay, and `retryable` says
 * whether sending the same request again could succeed. Providers never retry on their own.
 * Its `cause` is a reduced record (name, message, status, request id), never the vendor's error
 * with its headers; the secrets it was given never appear in it.
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
  /** True when sending the same request again could succeed: the transient kinds, unless the vendor said no. */
  readonly retryable: boolean;

  /**
   * Set when the provider refused (HTTP 400, kind `bad-request`) a strict schema the request
   * sent: `output` (the native output format), `tool` (a strict tool's input schema) or `both`.
   * The same request will fail again, but the same request without that strict schema (the
   * prompt or tool output mode, or the tools without `strict`) can succeed. Absent on every other error.
   */
  declare readonly schemaRejected?: SchemaRejection;

  /** What is kept of the underlying failure (never the vendor's error itself). */
  declare readonly cause?: ProviderErrorCause;

  constructor({ message, errorKind, status, retryAfterMs, retryable, provider, cause, secrets = [], schemaRejected }: ProviderErrorOptions) {
    super({ message: redactSecrets(message, secrets), ...(cause === undefined ? {} : { cause: reduceCause(cause, secrets) }) });
    this.errorKind = errorKind;
    if (status !== undefined) this.status = status;
    if (retryAfterMs !== undefined) this.retryAfterMs = retryAfterMs;
    if (schemaRejected !== undefined) this.schemaRejected = schemaRejected;
    this.provider = provider;
    this.retryable = isTransientErrorKind(errorKind) && retryable !== false;
  }

  /** True for a `ProviderError` from any copy of this package (`instanceof` is not enough). */
  static isInstance(value: unknown): value is ProviderError {
    return hasMarker(value, marker);
  }
}
