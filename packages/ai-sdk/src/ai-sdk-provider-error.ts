import type { ErrorKind } from '@keel/core';
import { hasMarker, isTransientErrorKind, KeelError, type SchemaRejection } from '@keel/core/internal';

const marker = Symbol.for('keel.error.AiSdkProviderError');

/** The kinds of failure a call through an AI SDK model can end in. */
export type AiSdkErrorKind = Extract<
  ErrorKind,
  'rate-limit' | 'overloaded' | 'server-error' | 'timeout' | 'network' | 'auth' | 'bad-request' | 'context-overflow' | 'bad-response' | 'aborted' | 'unknown'
>;

/**
 * What an {@link AiSdkProviderError} keeps of the AI SDK's error: never the error object itself
 * (its request body, response headers and body can hold secrets and whole prompts), only these.
 */
export interface AiSdkErrorCause {
  /** The AI SDK error's name, e.g. `AI_APICallError`. */
  readonly name: string;
  readonly message: string;
  /** The HTTP status, when a response arrived. */
  readonly status?: number;
  /** The vendor's request id (`x-request-id`, `request-id`), when the response had one. */
  readonly requestId?: string;
}

/** Constructor fields of {@link AiSdkProviderError}. */
export interface AiSdkProviderErrorOptions {
  readonly message: string;
  readonly errorKind: AiSdkErrorKind;
  /** The AI SDK model's provider id, e.g. `google.generative-ai`. */
  readonly provider: string;
  readonly status?: number;
  /** The delay the server asked for (`retry-after-ms`, `retry-after`, Gemini's `RetryInfo`). */
  readonly retryAfterMs?: number;
  /**
   * False when the AI SDK said a transient-looking failure is not worth retrying
   * (`APICallError.isRetryable`); the gate then does not retry it. Default: by kind.
   */
  readonly retryable?: boolean;
  /** On a `bad-request` that refused a strict schema the request sent: which one. */
  readonly schemaRejected?: SchemaRejection;
  readonly cause?: AiSdkErrorCause;
}

/**
 * A call through an AI SDK model failed. `errorKind` names the failure exactly (from the HTTP
 * status, the AI SDK's error class and `isRetryable`), `retryAfterMs` carries the server's
 * requested delay, and `retryable` says whether the gate may send the request again. The adapter
 * never retries on its own.
 */
export class AiSdkProviderError extends KeelError {
  private readonly [marker] = true;
  override readonly name = 'AiSdkProviderError';
  /** What kind of failure this is. */
  readonly errorKind: AiSdkErrorKind;
  /** The AI SDK model's provider id, e.g. `google.generative-ai`. */
  readonly provider: string;
  /** The HTTP status, when a response arrived. */
  declare readonly status?: number;
  /** The delay the server asked for before another attempt, in milliseconds. */
  declare readonly retryAfterMs?: number;
  /** True when sending the same request again could succeed (the gate's transient kinds, unless the AI SDK said no). */
  readonly retryable: boolean;
  /**
   * On a `bad-request` that refused a strict schema the request sent: `output` (the response
   * format), `tool` (a strict tool's input schema) or `both`. Core then moves the run to its next
   * output mode, or turns strict tools off.
   */
  declare readonly schemaRejected?: SchemaRejection;
  /** What is kept of the AI SDK's error. */
  declare readonly cause?: AiSdkErrorCause;

  constructor({ message, errorKind, provider, status, retryAfterMs, retryable, schemaRejected, cause }: AiSdkProviderErrorOptions) {
    super({ message, ...(cause === undefined ? {} : { cause }) });
    this.errorKind = errorKind;
    this.provider = provider;
    if (status !== undefined) this.status = status;
    if (retryAfterMs !== undefined) this.retryAfterMs = retryAfterMs;
    if (schemaRejected !== undefined) this.schemaRejected = schemaRejected;
    this.retryable = isTransientErrorKind(errorKind) && retryable !== false;
  }

  /** True for an `AiSdkProviderError` from any copy of this package (`instanceof` is not enough). */
  static isInstance(value: unknown): value is AiSdkProviderError {
    return hasMarker(value, marker);
  }
}
