import type { FinishReason } from '@keel/provider';

/**
 * Maps a Chat Completions `finish_reason`: `stop` → `stop` (or `tool-calls` when the message has
 * tool calls, as some OpenAI-compatible servers report), `tool_calls` / `function_call` →
 * `tool-calls`, `length` → `length`, `content_filter` → `content-filter`. A refusal wins over all.
 */
export function mapOpenAIFinishReason(
  finishReason: string | null | undefined,
  facts: { readonly refused: boolean; readonly hasToolCalls: boolean },
): FinishReason {
  if (facts.refused) return 'refusal';
  switch (finishReason) {
    case 'stop':
      return facts.hasToolCalls ? 'tool-calls' : 'stop';
    case 'tool_calls':
    case 'function_call':
      return 'tool-calls';
    case 'length':
      return 'length';
    case 'content_filter':
      return 'content-filter';
    default:
      return 'other';
  }
}
