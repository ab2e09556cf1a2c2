import { describe, expect, it } from 'vitest';
import { providerFromEnv } from './provider-from-env';

describe('providerFromEnv', () => {
  it('runs offline when no key or base URL is set', () => {
    expect(providerFromEnv({})).toBeUndefined();
    expect(providerFromEnv({ ANTHROPIC_API_KEY: ' ', OPENAI_API_KEY: '' })).toBeUndefined();
  });

  it('prefers Anthropic, with the model from KEEL_ANTHROPIC_MODEL or the default', () => {
    const target = providerFromEnv({ ANTHROPIC_API_KEY: 'key', OPENAI_API_KEY: 'other' });
    expect(target?.provider.name).toBe('anthropic');
    expect(target?.model).toBe('claude-sonnet-4-6');
    expect(providerFromEnv({ ANTHROPIC_API_KEY: 'key', KEEL_ANTHROPIC_MODEL: 'claude-haiku-4-5' })?.model).toBe('claude-haiku-4-5');
  });

  it('uses the OpenAI adapter for an OpenAI key or a compatible server URL alone', () => {
    expect(providerFromEnv({ OPENAI_API_KEY: 'key' })).toMatchObject({ provider: { name: 'openai' }, model: 'gpt-4o-mini' });
    const local = providerFromEnv({ OPENAI_BASE_URL: 'http://127.0.0.1:11434/v1', KEEL_OPENAI_MODEL: 'llama3.2' });
    expect(local).toMatchObject({ provider: { name: 'openai' }, model: 'llama3.2' });
  });
});
