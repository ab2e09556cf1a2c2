import { describe, expect, it } from 'vitest';
import { anthropic } from '../anthropic/anthropic-provider';
import { anthropicCapabilities } from '../anthropic/anthropic-capabilities';
import { openai } from '../openai/openai-provider';
import { openAICapabilities } from '../openai/openai-capabilities';

const both = { nativeOutput: true, strictTools: true };

describe('anthropicCapabilities', () => {
  it.each(['claude-sonnet-4-5', 'claude-sonnet-4-5-20250929', 'claude-opus-4-5-20251101', 'claude-haiku-4-5', 'claude-opus-4-6', 'claude-sonnet-4-6', 'claude-opus-4-7', 'claude-sonnet-5', 'claude-opus-5-5', 'claude-opus-4-5@20251101'])(
    '%s has structured outputs and strict tools',
    (model) => expect(anthropicCapabilities(model)).toEqual(both),
  );

  it.each(['claude-sonnet-4-20250514', 'claude-opus-4-1-20250805', 'claude-opus-4-1', 'claude-3-7-sonnet-latest', 'claude-3-5-haiku-20241022', 'claude-mythos-preview', 'my-proxy-alias', ''])(
    '%s has neither',
    (model) => expect(anthropicCapabilities(model)).toEqual({}),
  );
});

describe('openAICapabilities', () => {
  it.each(['gpt-4o', 'gpt-4o-2024-08-06', 'gpt-4o-mini', 'gpt-4o-mini-2024-07-18', 'gpt-4.1', 'gpt-4.1-nano', 'gpt-5', 'gpt-5-mini', 'gpt-5.1', 'o1', 'o1-2024-12-17', 'o3', 'o3-mini', 'o4-mini', 'ft:gpt-4o-2024-08-06:acme::abc123'])(
    '%s has native output and strict tools',
    (model) => expect(openAICapabilities(model)).toEqual(both),
  );

  it.each(['gpt-4o-2024-05-13', 'gpt-4-turbo', 'gpt-4-0613', 'gpt-4', 'gpt-3.5-turbo', 'gpt-3.5-turbo-0125'])('%s has strict tools only', (model) => {
    expect(openAICapabilities(model)).toEqual({ strictTools: true });
  });

  it.each(['o1-mini', 'o1-preview', 'gpt-4-0314', 'gpt-3.5-turbo-0301', 'gpt-3.5-turbo-instruct', 'chatgpt-4o-latest', 'llama3.2', 'qwen2.5:7b', 'openai/gpt-4o', ''])('%s has neither', (model) => {
    expect(openAICapabilities(model)).toEqual({});
  });
});

describe('capabilities() on the providers', () => {
  it('answers per model id from the table, every field present', () => {
    expect(anthropic({ apiKey: 'k' }).capabilities?.('claude-sonnet-4-6')).toEqual({ ...both, contextWindow: 200_000 });
    expect(anthropic({ apiKey: 'k' }).capabilities?.('claude-3-5-haiku-20241022')).toEqual({ nativeOutput: false, strictTools: false, contextWindow: 200_000 });
    expect(openai({ apiKey: 'k' }).capabilities?.('llama3.2')).toEqual({ nativeOutput: false, strictTools: false });
  });

  it('lets the user declare what a compatible server or a gateway supports, field by field', () => {
    const local = openai({ baseURL: 'http://127.0.0.1:11434/v1', capabilities: { nativeOutput: true, strictTools: true } });
    expect(local.capabilities?.('llama3.2')).toEqual(both);
    expect(openai({ apiKey: 'k', capabilities: { nativeOutput: false } }).capabilities?.('gpt-4o')).toEqual({ nativeOutput: false, strictTools: true, contextWindow: 128_000 });
    expect(anthropic({ apiKey: 'k', capabilities: { strictTools: false } }).capabilities?.('claude-opus-4-6')).toEqual({ nativeOutput: true, strictTools: false, contextWindow: 200_000 });
    expect(anthropic({ apiKey: 'k', capabilities: { nativeOutput: true, strictTools: true } }).capabilities?.('gateway-claude')).toEqual(both);
  });

  it('knows the context window from a table, overridable like the other capabilities', () => {
    expect(openai({ apiKey: 'k' }).capabilities?.('gpt-4.1-mini')?.contextWindow).toBe(1_047_576);
    expect(openai({ apiKey: 'k' }).capabilities?.('gpt-5-mini')?.contextWindow).toBe(400_000);
    expect(openai({ apiKey: 'k' }).capabilities?.('o3')?.contextWindow).toBe(200_000);
    expect(openai({ apiKey: 'k' }).capabilities?.('ft:gpt-4o-mini-2024-07-18:acme::x1')?.contextWindow).toBe(128_000);
    expect(openai({ apiKey: 'k' }).capabilities?.('llama3.2')).not.toHaveProperty('contextWindow');
    expect(openai({ baseURL: 'http://127.0.0.1:11434/v1', capabilities: { contextWindow: 32_768 } }).capabilities?.('llama3.2')?.contextWindow).toBe(32_768);
    expect(anthropic({ apiKey: 'k', capabilities: { contextWindow: 1_000_000 } }).capabilities?.('claude-sonnet-4-5')).toEqual({ ...both, contextWindow: 1_000_000 });
    expect(anthropic({ apiKey: 'k' }).capabilities?.('my-proxy-alias')).not.toHaveProperty('contextWindow');
    expect(() => openai({ capabilities: { contextWindow: 0 } })).toThrow(/contextWindow \} \}\) must be a whole number of tokens >= 1/);
    expect(() => anthropic({ capabilities: { contextWindow: '200k' } as never })).toThrow(TypeError);
  });

  it('refuses a capabilities option that is not an object of booleans, naming it', () => {
    expect(() => openai({ capabilities: { nativeOutput: 'yes' } as never })).toThrow(/capabilities: \{ nativeOutput \} \}\) must be true or false/);
    expect(() => anthropic({ capabilities: { nativeOuptut: true } as never })).toThrow(/unknown capability "nativeOuptut"/);
    expect(() => anthropic({ capabilities: [] as never })).toThrow(TypeError);
  });

  it('refuses the removed openai({ structuredOutput }) with its replacement', () => {
    expect(() => openai({ structuredOutput: true } as never)).toThrow(/structuredOutput \}\) was removed: it was replaced by openai\(\{ capabilities: \{ nativeOutput: true \} \}\)/);
    expect(() => openai({ structuredOutput: false } as never)).toThrow(TypeError);
  });

  it('exposes the pure lowering of each vendor', () => {
    const schema = { type: 'object', properties: { note: { type: 'string', maxLength: 5 } } };
    expect(anthropic({ apiKey: 'k' }).lowerSchema?.(schema, 'output')?.schema).toEqual({ type: 'object', properties: { note: { type: 'string' } }, required: [], additionalProperties: false });
    expect(openai({ apiKey: 'k' }).lowerSchema?.(schema, 'tool')?.schema).toEqual({ type: 'object', properties: { note: { type: ['string', 'null'] } }, required: ['note'], additionalProperties: false });
  });
});
