import { Agent, type AgentEvents } from '@keel/core';
import { describe, expect, it } from 'vitest';
import { anthropic } from './anthropic/anthropic-provider';
import { openai } from './openai/openai-provider';
import { anthropicTextAnswer } from './testing/fixtures/anthropic-fixtures';
import { openAITextAnswer } from './testing/fixtures/openai-fixtures';
import { jsonReply, wireServersPerTest } from '@keel/wire-server';

/** Usage counts from the wire are checked: a string or negative count never reaches the totals. */

const startServer = wireServersPerTest();

async function runAgainst(provider: (url: string) => Parameters<typeof Agent.create>[0]['provider'], body: unknown) {
  const wire = await startServer(jsonReply(body));
  const invalid: AgentEvents['usage.invalid'][] = [];
  const result = await Agent.create({ provider: provider(wire.url), model: 'm' })
    .on('usage.invalid', (payload) => void invalid.push(payload))
    .build()
    .run('hi');
  return { result, invalid };
}

describe('usage from the wire', () => {
  it('Anthropic: a string and a negative count are reported and recorded as estimates', async () => {
    const body = { ...anthropicTextAnswer, usage: { input_tokens: '21', output_tokens: -10, cache_read_input_tokens: 5, cache_creation_input_tokens: null } };
    const { result, invalid } = await runAgainst((url) => anthropic({ baseURL: url, apiKey: 'test-key' }), body);
    // Input and output are estimated on the high side from the request and the answer; valid counts stay as sent.
    expect(result.usage).toMatchObject({ cacheReadTokens: 5, cacheWriteTokens: 0 });
    expect(result.usage.inputTokens).toBeGreaterThan(0);
    expect(result.usage.outputTokens).toBeGreaterThan(0);
    expect(invalid.map((event) => [event.field, event.received])).toEqual([['inputTokens', 'NaN'], ['outputTokens', '-10']]);
  });

  it('OpenAI: a string completion count is reported and estimated; a negative cached count is reported and recorded as 0', async () => {
    const body = { ...openAITextAnswer, usage: { prompt_tokens: 100, completion_tokens: 'lots', total_tokens: 0, prompt_tokens_details: { cached_tokens: -4 } } };
    const { result, invalid } = await runAgainst((url) => openai({ baseURL: url, apiKey: 'test-key' }), body);
    expect(result.usage).toMatchObject({ inputTokens: 100, cacheReadTokens: 0 });
    expect(result.usage.outputTokens).toBeGreaterThan(0);
    expect(invalid.map((event) => event.field)).toEqual(['outputTokens', 'cacheReadTokens']);
  });
});
