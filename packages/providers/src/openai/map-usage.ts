import type { TokenUsage } from '@keel/provider';
import { wireCount } from '../shared/wire-count';
import type { CompletionUsage } from './openai-types';

/**
 * Maps Chat Completions usage. `prompt_tokens` includes cached tokens; they are taken out of
 * `inputTokens` and reported as `cacheReadTokens`. Servers that send no usage give zeros; counts
 * are checked with {@link wireCount}.
 */
export function mapOpenAIUsage(usage: CompletionUsage | null | undefined): TokenUsage {
  const cached = wireCount(usage?.prompt_tokens_details?.cached_tokens);
  const prompt = wireCount(usage?.prompt_tokens);
  return {
    // A bad cached count must not hide the prompt count: only a valid one is taken out of it.
    inputTokens: Number.isFinite(cached) && cached >= 0 && Number.isFinite(prompt) ? Math.max(0, prompt - cached) : prompt,
    outputTokens: wireCount(usage?.completion_tokens),
    cacheReadTokens: cached,
    cacheWriteTokens: 0,
  };
}
