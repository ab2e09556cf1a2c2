import { type FinishReason, isContextWindowStop } from '@keel/core/internal';
import { ProviderError } from '../errors/provider-error';

/**
 * Maps a Messages API `stop_reason`: `end_turn` and `stop_sequence` → `stop`, `tool_use` →
 * `tool-calls`, `max_tokens` → `length`, `refusal` → `refusal`, `pause_turn` and anything else →
 * `other` (`model_context_window_exceeded` is an error: see {@link refuseContextWindowStop}).
 */
export function mapAnthropicFinishReason(stopReason: string | null | undefined): FinishReason {
  switch (stopReason) {
    case 'end_turn':
    case 'stop_sequence':
      return 'stop';
    case 'tool_use':
      return 'tool-calls';
    case 'max_tokens':
      return 'length';
    case 'refusal':
      return 'refusal';
    default:
      return 'other';
  }
}

/**
 * A model that stopped because the conversation filled its context window
 * (`model_context_window_exceeded`) did not answer: a `context-overflow` ProviderError, never a
 * cut answer to continue (the next request would not fit either).
 */
export function refuseContextWindowStop(stopReason: unknown, provider: string): void {
  if (isContextWindowStop(stopReason)) {
    throw new ProviderError({ message: "Anthropic stopped at the model's context window (model_context_window_exceeded, context-overflow): the conversation no longer fits", errorKind: 'context-overflow', provider });
  }
}
