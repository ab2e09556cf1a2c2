import { errorMessageOf } from '@keel/reliability/internal';
import type { SchemaRejection } from '../spec/model-provider-v1';
import { ProviderError, type ProviderErrorKind } from './provider-error';

/** Who failed, for {@link providerFailure} and `mapVendorError`. */
export interface FailureContext {
  /** The provider's name, e.g. `anthropic`. */
  readonly provider: string;
  /** Starts every message, e.g. `Anthropic`; default: the provider's name. */
  readonly label?: string | undefined;
  /** Strings (the API key) redacted from the error's message and cause, even when the server echoes them. */
  readonly secrets?: readonly string[] | undefined;
}

/** What a failure had besides its kind: the fields of {@link ProviderError} it sets. */
export interface FailureDetails {
  readonly status?: number | undefined;
  readonly retryAfterMs?: number | undefined;
  /** `false` when the vendor said a transient-looking failure is not worth retrying. */
  readonly retryable?: boolean | undefined;
  readonly schemaRejected?: SchemaRejection | undefined;
}

/**
 * The one way an adapter makes its error from what its vendor threw: a {@link ProviderError} of
 * `errorKind` whose message is `<label>: <problem>: <the thrown message>`, whose cause is the
 * thrown value reduced (name, message, status, request id), secrets redacted throughout.
 */
export function providerFailure(error: unknown, context: FailureContext, errorKind: ProviderErrorKind, problem: string, details: FailureDetails = {}): ProviderError {
  const { status, retryAfterMs, retryable, schemaRejected } = details;
  return new ProviderError({
    message: `${context.label ?? context.provider}: ${problem}: ${errorMessageOf(error)}`,
    errorKind,
    provider: context.provider,
    secrets: context.secrets ?? [],
    ...(error === undefined ? {} : { cause: error }),
    ...(status === undefined ? {} : { status }),
    ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
    ...(retryable === undefined ? {} : { retryable }),
    ...(schemaRejected === undefined ? {} : { schemaRejected }),
  });
}
