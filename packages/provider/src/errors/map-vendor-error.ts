import { errorMessageOf, readField } from '@keel/reliability/internal';
import type { SchemaRejection } from '../spec/model-provider-v1';
import { redactSecrets } from '../kit/redact-secrets';
import { type HeaderReader, type HeaderRecord } from './parse-retry-after';
import { ProviderError } from './provider-error';
import { type FailureContext, type FailureDetails, providerFailure } from './provider-failure';
import type { ProviderErrorKind } from './provider-error';
import { isAbortLike, socketFailureKind, statusFailure, vendorErrorKind } from './read-vendor-error';

/** Makes the error of a reading: {@link providerFailure} for the value being mapped. */
export type Fail = (errorKind: ProviderErrorKind, problem: string, details?: FailureDetails) => ProviderError;

/** What {@link mapVendorError} needs to know about the call that failed. */
export interface MapVendorErrorContext extends FailureContext {
  /** The caller's signal: once it has aborted, any failure is reported as `aborted`. */
  readonly signal?: AbortSignal | undefined;
  /**
   * The adapter's own reading of what its vendor throws (its SDK's error classes), asked after
   * aborts and before the common readings; `undefined` when it does not know the value.
   */
  readonly read?: ((error: unknown, fail: Fail) => ProviderError | undefined) | undefined;
  /**
   * Reads a vendor's 400 for a refused strict schema; `undefined` for any other bad request.
   * Only asked about HTTP 400; a reader that throws reads as no schema rejection.
   */
  readonly schemaRejection?: ((error: unknown) => SchemaRejection | undefined) | undefined;
}

/** A provider error with every secret redacted: the same object when none appears in it. */
function redacted(error: ProviderError, secrets: readonly string[]): ProviderError {
  const text = `${error.message}\n${error.cause?.message ?? ''}\n${error.cause?.name ?? ''}\n${error.cause?.requestId ?? ''}`;
  if (secrets.length === 0 || redactSecrets(text, secrets) === text) return error;
  return new ProviderError({
    message: error.message,
    errorKind: error.errorKind,
    provider: error.provider,
    secrets,
    retryable: error.retryable,
    ...(error.status === undefined ? {} : { status: error.status }),
    ...(error.retryAfterMs === undefined ? {} : { retryAfterMs: error.retryAfterMs }),
    ...(error.schemaRejected === undefined ? {} : { schemaRejected: error.schemaRejected }),
    ...(error.cause === undefined ? {} : { cause: error.cause }),
  });
}

/** What {@link httpFailure} reads of an HTTP error response. */
export interface HttpResponseFacts {
  /** The error's code, message and body: searched for a context-overflow refusal. */
  readonly texts: readonly unknown[];
  /** The response headers (`retry-after-ms`, `retry-after`). */
  readonly headers: unknown;
  /** Which strict schema a 400 refused, if any; asked only about a 400, a reader that throws reads as none. */
  readonly schemaRejection?: (() => SchemaRejection | undefined) | undefined;
  /** The kind the adapter read instead of the status's own (never replaces `context-overflow`). */
  readonly errorKind?: ProviderErrorKind | undefined;
  /** The delay the adapter read elsewhere (a body field) the adapter read elsewhere (a body field); the headers' delay comes first. */
  readonly retryAfterMs?: number | undefined;
  /** `false` when the vendor said the failure is not worth retrying. */
  readonly retryable?: boolean | undefined;
}

/**
 * The error of an HTTP error status, the same for every adapter: the kind of the status
 * ({@link statusFailure}: `context-overflow` for a 400 or 413 that says so), the delay from
 * `retry-after-ms` / `retry-after`, and on a 400 the strict schema it refused, if any.
 */
export function httpFailure(
  fail: Fail,
  status: number,
  response: HttpResponseFacts,
): ProviderError {
  const failure = statusFailure(status, response.texts, response.headers as HeaderReader | HeaderRecord | undefined);
  const errorKind = failure.errorKind === 'context-overflow' ? failure.errorKind : (response.errorKind ?? failure.errorKind);
  const retryAfterMs = failure.retryAfterMs ?? response.retryAfterMs;
  let schemaRejected: SchemaRejection | undefined;
  try {
    schemaRejected = status === 400 && errorKind !== 'context-overflow' ? response.schemaRejection?.() : undefined;
  } catch {
    schemaRejected = undefined;
  }
  const problem =
    errorKind === 'auth'
      ? `authentication failed: the API key was rejected (HTTP ${status})`
      : errorKind === 'context-overflow'
        ? `request does not fit the model's context window (HTTP ${status}, context-overflow)`
        : `request failed with HTTP ${status} (${errorKind})`;
  return fail(errorKind, problem, { status, retryAfterMs, schemaRejected, retryable: response.retryable });
}

/**
 * The error-mapping skeleton every adapter shares: turns whatever a call threw into a
 * {@link ProviderError}. Once the caller's signal has aborted, every failure is `aborted`; a
 * `ProviderError` passes through (redacted); an abort is `aborted` (with the signal's reason as
 * cause when the caller aborted); then the adapter's own
 * `read`; then an HTTP `status` ({@link httpFailure}, headers from `headers`); a vendor error
 * object by its `type` ({@link vendorErrorKind}); a socket failure down the cause chain
 * (`timeout` or `network`); anything else `unknown`.
 */
export function mapVendorError(error: unknown, context: MapVendorErrorContext): ProviderError {
  const secrets = context.secrets ?? [];
  const aborted = context.signal?.aborted === true;
  if (ProviderError.isInstance(error) && (!aborted || error.errorKind === 'aborted')) return redacted(error, secrets);
  const fail: Fail = (errorKind, problem, details) => providerFailure(error, context, errorKind, problem, details);
  // Once the caller aborted, what happened is the abort: its reason is the cause.
  if (aborted) return providerFailure(context.signal?.reason, context, 'aborted', 'the request was aborted');
  if (isAbortLike(error)) return fail('aborted', 'the request was aborted');
  const read = context.read?.(error, fail);
  if (read !== undefined) return read;
  const status = readField(error, 'status');
  if (typeof status === 'number') {
    const schemaRejection = context.schemaRejection;
    return httpFailure(fail, status, { texts: [readField(error, 'code'), errorMessageOf(error)], headers: readField(error, 'headers'), schemaRejection: schemaRejection && (() => schemaRejection(error)) });
  }
  const vendor = vendorErrorKind(error);
  if (vendor !== undefined) return fail(vendor.errorKind, `reported ${vendor.type} (${vendor.errorKind})`);
  const socketKind = socketFailureKind(error);
  if (socketKind !== undefined) return fail(socketKind, socketKind === 'timeout' ? 'request timed out' : 'connection failed');
  return fail('unknown', 'request failed');
}
