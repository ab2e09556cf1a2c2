import type { TokenUsage } from '@keel/provider';
import { wireCount } from '../shared/wire-count';

/** The usage fields of a Messages API response or stream event; any may be missing or null. */
export interface AnthropicUsageFields {
  readonly input_tokens?: number | null;
  readonly output_tokens?: number | null;
  readonly cache_read_input_tokens?: number | null;
  readonly cache_creation_input_tokens?: number | null;
}

/**
 * Maps Messages API usage. `input_tokens` already excludes cached tokens, which are reported as
 * `cacheReadTokens` (read) and `cacheWriteTokens` (written). Counts are checked with {@link wireCount}.
 */
export function mapAnthropicUsage(usage: AnthropicUsageFields | null | undefined): TokenUsage {
  return {
    inputTokens: wireCount(usage?.input_tokens),
    outputTokens: wireCount(usage?.output_tokens),
    cacheReadTokens: wireCount(usage?.cache_read_input_tokens),
    cacheWriteTokens: wireCount(usage?.cache_creation_input_tokens),
  };
}
