import type { ModelUsage } from '@keel/core';
import type { CompletionUsage } from './openai-types';

/**
 * Maps Chat Completions usage. `prompt_tokens` includes cached tokens; they are taken out of
 * `inputTokens` and reported as `cacheReadTokens`. Servers that send no usage give zeros.
 */
export function mapOpenAIUsage(usage: CompletionUsage | null | undefined): ModelUsage {
  const cached = usage?.prompt_tokens_details?.cached_tokens ?? 0;
  return {
    inputTokens: Math.max(0, (usage?.prompt_tokens ?? 0) - cached),
    outputTokens: usage?.completion_tokens ?? 0,
    cacheReadTokens: cached,
    cacheWriteTokens: 0,
  };
}
