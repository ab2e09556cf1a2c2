import type { ErrorKind } from '@keel/core';

const marker = Symbol.for('keel.error.ProviderError');
/** The marker every Keel error carries, so `KeelError.isKeelError` recognises this one too. */
const keelErrorMarker = Symbol.for('keel.error');

/** The kinds of failure a provider call can end in. */
export type ProviderErrorKind = Extract<
  ErrorKind,
  'rate-limit' | 'overloaded' | 'server-error' | 'timeout' | 'network' | 'auth' | 'bad-request' | 'aborted' | 'unknown'
>;

const retryableKinds: ReadonlySet<ProviderErrorKind> = new Set<ProviderErrorKind>([
  'rate-limit',
  'overloaded',
  'server-error',
  'timeout',
  'network',
]);

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
  /** The underlying error (usually the vendor SDK's), kept for debugging. */
  readonly cause?: unknown;
}

/**
 * A model call failed. Every error a Keel provider throws is one of these: `errorKind` names the
 * failure exactly, `retryAfterMs` carries the server's requested delay, and `retryable` says
 * whether sending the same request again could succeed. Providers never retry on their own.
 */
export class ProviderError extends Error {
  private readonly [marker] = true;
  private readonly [keelErrorMarker] = true;
  override readonly name = 'ProviderError';
  /** What kind of failure this is. */
  readonly errorKind: ProviderErrorKind;
  /** The HTTP status, when a response arrived. */
  declare readonly status?: number;
  /** The delay the server asked for before another attempt, in milliseconds. */
  declare readonly retryAfterMs?: number;
  /** The provider that failed, e.g. `anthropic`. */
  readonly provider: string;
  /** True for rate limits, overload, server errors, timeouts and network faults. */
  readonly retryable: boolean;

  constructor({ message, errorKind, status, retryAfterMs, provider, cause }: ProviderErrorOptions) {
    super(message, cause === undefined ? undefined : { cause });
    this.errorKind = errorKind;
    if (status !== undefined) this.status = status;
    if (retryAfterMs !== undefined) this.retryAfterMs = retryAfterMs;
    this.provider = provider;
    this.retryable = retryableKinds.has(errorKind);
  }

  /** True for a `ProviderError` from any copy of this package (`instanceof` is not enough). */
  static isInstance(value: unknown): value is ProviderError {
    return typeof value === 'object' && value !== null && marker in value;
  }
}
