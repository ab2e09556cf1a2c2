import { createGoogleGenerativeAI } from '@ai-sdk/google';
import { describe, expect, it } from 'vitest';
import { geminiAgent, startLocalGemini } from './ai-sdk-gemini';
import { asComplete } from '@keel/core/test';

describe('the Gemini example (offline, on the local Gemini server)', () => {
  it('waits out the rate limit, re-asks the bad tool argument, and returns the validated answer', async () => {
    const local = await startLocalGemini();
    try {
      const google = createGoogleGenerativeAI({ baseURL: local.baseURL, apiKey: 'offline' });
      const result = asComplete(await geminiAgent(google).build().run('What should I wear in Paris today?'));
      expect(result.value).toEqual({ city: 'Paris', celsius: 18, advice: 'Light jacket.' });
      expect(result.attempts.map((attempt) => attempt.errorKind)).toEqual(['rate-limit', 'ok', 'ok', 'ok']);
      expect(result.toolCalls.map((call) => call.arguments)).toEqual([{ city: 'Paris' }]);
      expect(local.requests).toBe(4);
    } finally {
      await local.close();
    }
  });
});
