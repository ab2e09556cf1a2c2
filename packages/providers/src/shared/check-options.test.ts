import { describe, expect, it } from 'vitest';
import { anthropic } from '../anthropic/index';
import { openai } from '../openai/index';

describe('provider factories refuse options they do not take', () => {
  it('a removed model id names where it is set now', () => {
    expect(() => anthropic({ model: 'claude-sonnet-4-6' } as never)).toThrow('anthropic({ model }) was removed: the model id is set on the agent');
    expect(() => openai({ model: 'gpt-4.1' } as never)).toThrow('openai({ model }) was removed: the model id is set on the agent');
  });

  it('a typo lists the options there are', () => {
    expect(() => anthropic({ apikey: 'k' } as never)).toThrow('anthropic({ apikey }) is not an option; the options are apiKey, baseURL');
    expect(() => openai({ baseUrl: 'http://127.0.0.1' } as never)).toThrow('openai({ baseUrl }) is not an option');
  });

  it('every documented option is taken', () => {
    expect(() => anthropic({ apiKey: 'k', baseURL: 'http://127.0.0.1:1', timeout: 1000, cache: true, maxTokens: 10, capabilities: { nativeOutput: true } })).not.toThrow();
    expect(anthropic({ apiKey: 'k' }).name).toBe('anthropic');
    expect(openai({ apiKey: 'k', baseURL: 'http://127.0.0.1:1', timeout: 1000, maxTokensField: 'max_completion_tokens', capabilities: { strictTools: true } }).name).toBe('openai');
  });
});
