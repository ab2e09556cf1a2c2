import {
  errorMessageOf,
  type HeaderReader,
  isAbortLike,
  isContextOverflow,
  isInstanceOf,
  kindFromStatus,
  parseRetryAfter,
  readField,
  redactSecrets,
  type SchemaRejection,
  socketFailureKind,
  vendorErrorKind,
} from '@keel/core/internal';
import { ProviderError, type ProviderErrorKind } from '../errors/provider-error';

/** A class of the vendor SDK's errors, tested with `instanceof`. */
export type ErrorClass = abstract new (...args: never[]) => unknown;

/** The vendor SDK's error classes the mapping needs to tell apart. */
export interface SdkErrorClasses {
  /** Thrown when the request's signal aborts it. */
  readonly userAbort: ErrorClass;
  /** Thrown when the client's `timeout` elapses. */
  readonly connectionTimeout: ErrorClass;
  /** Thrown when no response arrived (refused, reset, DNS, ...). */
  readonly connection: ErrorClass;
}

/** What {@link mapSdkError} needs to know about the call that failed. */
export interface MapSdkErrorContext {
  /** The provider's name, e.g. `anthropic`. */
  readonly provider: string;
  /** Name used in messages, e.g. `Anthropic`. */
  readonly label: string;
  readonly classes: SdkErrorClasses;
  /** The caller's signal: once it has aborted, any failure is reported as `aborted`. */
  readonly signal?: AbortSignal | undefined;
  /** Strings (the API key) redacted from the error's message and cause, even when the server echoes them. */
  readonly secrets?: readonly string[] | undefined;
  /**
   * Reads a vendor's 400 (the SDK error) for a refused strict schema; `undefined` for any other
   * bad request. Only asked about HTTP 400.
   */
  readonly schemaRejection?: ((error: unknown) => SchemaRejection | undefined) | undefined;
  /** What the SDK says when it has no key to send (it throws before any request): read as `auth`. */
  readonly missingKey?: RegExp | undefined;
}

/** The adapter's reading of a 400; a reader that throws reads as no schema rejection. */
function readSchemaRejection(context: MapSdkErrorContext, error: unknown): SchemaRejection | undefined {
  try {
    return context.schemaRejection?.(error);
  } catch {
    return undefined;
  }
}

/** A provider error with every secret redacted: the same object when none appears in it. */
function redacted(error: ProviderError, secrets: readonly string[]): ProviderError {
  if (secrets.length === 0) return error;
  const text = `${error.message}\n${error.cause?.message ?? ''}\n${error.cause?.name ?? ''}\n${error.cause?.requestId ?? ''}`;
  if (redactSecrets(text, secrets) === text) return error;
  return new ProviderError({
    message: error.message,
    errorKind: error.errorKind,
    provider: error.provider,
    secrets,
    ...(error.status === undefined ? {} : { status: error.status }),
    ...(error.retryAfterMs === undefined ? {} : { retryAfterMs: error.retryAfterMs }),
    ...(error.schemaRejected === undefined ? {} : { schemaRejected: error.schemaRejected }),
    ...(error.cause === undefined ? {} : { cause: error.cause }),
  });
}

/**
 * Turns whatever a vendor SDK threw into a {@link ProviderError}: aborts → `aborted`; the client
 * timeout → `timeout`; connection failures → `network`; HTTP statuses by {@link kindFromStatus}
 * with `retry-after-ms` / `retry-after` read into `retryAfterMs`; stream `error` events by their
 * vendor type; a 400 that refused a strict schema carries `schemaRejected` (read by the adapter's
 * `schemaRejection`). Once the caller's signal has aborted, every failure is `aborted` (the SDKs end an
 * aborted stream silently, which would otherwise look like a dropped connection). Any other
 * `ProviderError` passes through (redacted). Every message and cause has `secrets` replaced by `[redacted]`.
 */
export function mapSdkError(error: unknown, context: MapSdkErrorContext): ProviderError {
  const { provider, label, classes, signal } = context;
  const secrets = context.secrets ?? [];
  if (signal?.aborted === true) {
    if (ProviderError.isInstance(error) && error.errorKind === 'aborted') return redacted(error, secrets);
    return new ProviderError({ message: `${label} request was aborted`, errorKind: 'aborted', provider, cause: signal.reason, secrets });
  }
  if (ProviderError.isInstance(error)) return redacted(error, secrets);
  const make = (errorKind: ProviderErrorKind, message: string, extra: { status?: number; retryAfterMs?: number; schemaRejected?: SchemaRejection } = {}) =>
    new ProviderError({ message, errorKind, provider, cause: error, secrets, ...extra });

  if (isInstanceOf(error, classes.userAbort) || isAbortLike(error)) {
    return make('aborted', `${label} request was aborted`);
  }
  if (isInstanceOf(error, classes.connectionTimeout) || readField(error, 'name') === 'TimeoutError') {
    return make('timeout', `${label} request timed out: ${errorMessageOf(error)}`);
  }
  if (isInstanceOf(error, classes.connection)) {
    return make('network', `${label} connection failed: ${errorMessageOf(error)}`);
  }
  const status = readField(error, 'status');
  if (typeof status !== 'number' && context.missingKey?.test(errorMessageOf(error)) === true) {
    return make('auth', `${label} authentication failed: no API key is set (${errorMessageOf(error)})`);
  }
  if (typeof status === 'number') {
    const overflow = (status === 400 || status === 413) && isContextOverflow(readField(error, 'code'), errorMessageOf(error));
    const errorKind: ProviderErrorKind = overflow ? 'context-overflow' : kindFromStatus(status);
    const retryAfterMs = parseRetryAfter(readField(error, 'headers') as HeaderReader | undefined);
    const schemaRejected = status === 400 && !overflow ? readSchemaRejection(context, error) : undefined;
    const problem =
      errorKind === 'auth'
        ? `authentication failed: the API key was rejected (HTTP ${status})`
        : errorKind === 'context-overflow'
          ? `request does not fit the model's context window (HTTP ${status}, context-overflow)`
          : `request failed with HTTP ${status} (${errorKind})`;
    return make(errorKind, `${label} ${problem}: ${errorMessageOf(error)}`, {
      status,
      ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
      ...(schemaRejected === undefined ? {} : { schemaRejected }),
    });
  }
  const vendor = vendorErrorKind(error);
  if (vendor !== undefined) return make(vendor.errorKind, `${label} reported ${vendor.type} (${vendor.errorKind}): ${errorMessageOf(error)}`);
  const socketKind = socketFailureKind(error);
  if (socketKind === 'timeout') return make('timeout', `${label} request timed out: ${errorMessageOf(error)}`);
  if (socketKind === 'network') return make('network', `${label} connection failed: ${errorMessageOf(error)}`);
  return make('unknown', `${label} request failed: ${errorMessageOf(error)}`);
}
