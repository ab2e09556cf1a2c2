import { describe, expect, it } from 'vitest';
import { estimateUsage } from './estimate-usage';
import { sanitizeUsage } from './usage-ledger';

const request = { model: 'm', system: 'You answer.', messages: [{ role: 'user' as const, content: 'x'.repeat(3000) }] };
const response = { content: [{ type: 'text' as const, text: 'y'.repeat(300) }] };

describe('estimateUsage', () => {
  it('keeps reported counts as they are', () => {
    const reported = { inputTokens: 10, outputTokens: 5, cacheReadTokens: 0, cacheWriteTokens: 0 };
    expect(estimateUsage(request, response, reported, [])).toEqual({ usage: reported, estimated: false });
  });

  it('estimates, on the high side, the input and output tokens a provider did not report', () => {
    const { usage, invalid } = sanitizeUsage({ inputTokens: undefined, outputTokens: undefined, cacheReadTokens: 0, cacheWriteTokens: 0 });
    const estimated = estimateUsage(request, response, usage, invalid);
    expect(estimated.estimated).toBe(true);
    // 3,000 characters of prompt are at most 1,000 tokens for any tokenizer of 3 characters a token or more.
    expect(estimated.usage.inputTokens).toBeGreaterThanOrEqual(1000);
    expect(estimated.usage.outputTokens).toBeGreaterThanOrEqual(100);
  });

  it('estimates only the counts that are missing', () => {
    const { usage, invalid } = sanitizeUsage({ inputTokens: 42, outputTokens: Number.NaN, cacheReadTokens: 0, cacheWriteTokens: 0 });
    const estimated = estimateUsage(request, response, usage, invalid);
    expect(estimated.usage.inputTokens).toBe(42);
    expect(estimated.usage.outputTokens).toBeGreaterThanOrEqual(100);
  });

  it('estimates a response with no usage at all', () => {
    const { usage, invalid } = sanitizeUsage(undefined);
    expect(estimateUsage(request, response, usage, invalid).usage.inputTokens).toBeGreaterThan(0);
  });
});
