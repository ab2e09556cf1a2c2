import { errorMessageOf, isInstanceOf, mapVendorError, type MapVendorErrorContext, type ProviderError, readField } from '@keel/provider';

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
export interface MapSdkErrorContext extends Omit<MapVendorErrorContext, 'read'> {
  /** Name used in messages, e.g. `Anthropic`. */
  readonly label: string;
  readonly classes: SdkErrorClasses;
  /** What the SDK says when it has no key to send (it throws before any request): read as `auth`. */
  readonly missingKey?: RegExp | undefined;
}

/**
 * Turns whatever a vendor SDK threw into a `ProviderError` with `mapVendorError` (aborts, HTTP
 * statuses with their retry delay and refused schemas, stream `error` events, socket failures),
 * reading the SDK's own classes first: its abort → `aborted`, its client timeout → `timeout`, its
 * connection failure → `network`, and a missing key (`missingKey`, before any request) → `auth`.
 */
export function mapSdkError(error: unknown, context: MapSdkErrorContext): ProviderError {
  const { classes, missingKey } = context;
  return mapVendorError(error, {
    ...context,
    read: (thrown, fail) => {
      if (isInstanceOf(thrown, classes.userAbort)) return fail('aborted', 'the request was aborted');
      if (isInstanceOf(thrown, classes.connectionTimeout) || readField(thrown, 'name') === 'TimeoutError') return fail('timeout', 'request timed out');
      if (isInstanceOf(thrown, classes.connection)) return fail('network', 'connection failed');
      if (typeof readField(thrown, 'status') !== 'number' && missingKey?.test(errorMessageOf(thrown)) === true) return fail('auth', 'authentication failed: no API key is set');
      return undefined;
    },
  });
}
