import { isContextWindowStop } from './context-overflow';
import { ProviderError } from './provider-error';

/**
 * Throws when a model stopped because the conversation filled its context window (a stop reason
 * such as `model_context_window_exceeded`, see `isContextWindowStop`): such a model did not
 * answer, so this is a `context-overflow` {@link ProviderError}, never a cut answer to continue
 * (the next request would not fit either). Any other stop reason returns.
 */
export function refuseContextWindowStop(stopReason: unknown, provider: string, label: string = provider): void {
  if (!isContextWindowStop(stopReason)) return;
  throw new ProviderError({
    message: `${label}: the model stopped at its context window (${String(stopReason)}, context-overflow): the conversation no longer fits`,
    errorKind: 'context-overflow',
    provider,
  });
}
