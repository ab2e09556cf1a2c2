import { ProviderError } from '../errors/provider-error';

/** The `aborted` error for a call whose signal fired, keeping the signal's reason as the cause. */
export function abortError(provider: string, label: string, signal: AbortSignal): ProviderError {
  return new ProviderError({
    message: `${label} request was aborted`,
    errorKind: 'aborted',
    provider,
    cause: signal.reason,
  });
}
