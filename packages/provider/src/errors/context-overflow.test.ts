import { describe, expect, it } from 'vitest';
import { isContextOverflow, isContextWindowStop } from './context-overflow';

describe('context overflow', () => {
  it.each([
    'prompt is too long: 208310 tokens > 200000 maximum',
    'input length and `max_tokens` exceed context limit: 197942 + 21333 > 200000, decrease input length or `max_tokens` and try again',
    "This model's maximum context length is 128000 tokens. However, your messages resulted in 130512 tokens. Please reduce the length of the messages.",
    'context_length_exceeded',
    'The input token count (1200000) exceeds the maximum number of tokens allowed (1048576).',
  ])('reads %j as an overflow', (text) => expect(isContextOverflow(text)).toBe(true));

  it('reads other refusals, and what is not text, as none', () => {
    expect(isContextOverflow('max_tokens: 100000 > 64000, which is the maximum allowed number of output tokens for claude-sonnet-4-5')).toBe(false);
    expect(isContextOverflow('Invalid schema for response_format', undefined, 42, null)).toBe(false);
    expect(isContextOverflow(undefined, 'context_length_exceeded')).toBe(true);
  });

  it('knows the stop reason of a model that ran out of window', () => {
    expect(isContextWindowStop('model_context_window_exceeded')).toBe(true);
    expect(isContextWindowStop('max_tokens')).toBe(false);
    expect(isContextWindowStop(undefined)).toBe(false);
  });
});
