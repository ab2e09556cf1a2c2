import { estimateMessageTokens, estimateRequestTokens } from '../context/estimate-tokens';
import type { ModelRequest, ModelResponse } from '@keel/provider';
import type { TokenUsage } from '@keel/reliability';
import type { InvalidUsageField } from './usage-ledger';

/** A call's usage with what the provider did not report estimated, and whether anything was. */
export interface EstimatedUsage {
  readonly usage: TokenUsage;
  /** True when a count is an estimate (the provider reported none, or one that was not a count). */
  readonly estimated: boolean;
}

/**
 * The usage to record for a call whose provider left counts out or reported ones that are not
 * counts: input and output tokens estimated on the high side from the request sent (system
 * prompt, tools, messages) and the answer received, so a budget bounds the run by an estimate
 * rather than by nothing. Cache counts the provider did not report stay 0 (they only split input).
 */
export function estimateUsage(request: ModelRequest, response: Pick<ModelResponse, 'content'>, usage: TokenUsage, invalid: readonly InvalidUsageField[]): EstimatedUsage {
  if (invalid.length === 0) return { usage, estimated: false };
  const missing = new Set(invalid.map((entry) => entry.field));
  const all = missing.has('usage');
  const input = all || missing.has('inputTokens');
  const output = all || missing.has('outputTokens');
  if (!input && !output) return { usage, estimated: false };
  return {
    usage: {
      ...usage,
      ...(input ? { inputTokens: estimateRequestTokens({ system: request.system, tools: request.tools }, request.messages) } : {}),
      ...(output ? { outputTokens: estimateMessageTokens({ role: 'assistant', content: response.content }) } : {}),
    },
    estimated: true,
  };
}
