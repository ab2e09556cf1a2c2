import { ProviderError } from '@keel/provider';
import { describe, expect, it } from 'vitest';
import { localMessagesServer, messagesApi, runCustomProvider } from './custom-provider';

describe('the custom provider example (offline)', () => {
  it('a provider made with @keel/provider alone: a 429 is a rate-limit the gate retries, then the answer', async () => {
    const local = await localMessagesServer();
    try {
      const lines: string[] = [];
      expect(await runCustomProvider(messagesApi(local.url, 'sk-local-example'), 'claude-local', (line) => lines.push(line))).toBe('Paris.');
      expect(lines).toEqual(['answer: Paris.', 'attempts: rate-limit, ok']);
      expect(local.requests).toBe(2);
    } finally {
      await local.close();
    }
  });

  it('a server that cannot be reached is a network failure, and the key never shows', async () => {
    const error = await messagesApi('http://127.0.0.1:9', 'sk-secret-123')
      .generate({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }, {})
      .catch((thrown: unknown) => thrown);
    expect(ProviderError.isInstance(error) && error.errorKind).toBe('network');
    expect(String((error as Error).message)).not.toContain('sk-secret-123');
  });
});
