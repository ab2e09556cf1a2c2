import type { FinishReason } from '@keel/provider';

/**
 * Maps a Messages API `stop_reason`: `end_turn` and `stop_sequence` → `stop`, `tool_use` →
 * `tool-calls`, `max_tokens` → `length`, `refusal` → `refusal`, `pause_turn` and anything else →
 * `other` (`model_context_window_exceeded` is an error: see `refuseContextWindowStop`).
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
