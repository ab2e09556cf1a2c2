import type { ModelUsage } from '@keel/core';

/** The usage fields of a Messages API response or stream event; any may be missing or null. */
export interface AnthropicUsageFields {
  readonly input_tokens?: number | null;
  readonly output_tokens?: number | null;
  readonly cache_read_input_tokens?: number | null;
  readonly cache_creation_input_tokens?: number | null;
}

/**
 * Maps Messages API usage. `input_tokens` already excludes cached tokens, which are reported as
 * `cacheReadTokens` (read) and `cacheWriteTokens` (written).
 */
export function mapAnthropicUsage(usage: AnthropicUsageFields | null | undefined): ModelUsage {
  return {
    inputTokens: usage?.input_tokens ?? 0,
    outputTokens: usage?.output_tokens ?? 0,
    cacheReadTokens: usage?.cache_read_input_tokens ?? 0,
    cacheWriteTokens: usage?.cache_creation_input_tokens ?? 0,
  };
}
