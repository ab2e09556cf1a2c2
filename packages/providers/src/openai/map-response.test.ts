import { describe, expect, it } from 'vitest';
import type { ChatCompletion } from './openai-types';
import { mapOpenAIFinishReason } from './map-finish-reason';
import { mapOpenAIResponse } from './map-response';

describe('mapOpenAIResponse', () => {
  it.each([
    ['stop', false, 'stop'],
    ['stop', true, 'tool-calls'],
    ['tool_calls', true, 'tool-calls'],
    ['function_call', true, 'tool-calls'],
    ['length', false, 'length'],
    ['content_filter', false, 'content-filter'],
    [null, false, 'other'],
  ] as const)('maps finish_reason %s (tool calls: %s) to %s', (finishReason, hasToolCalls, expected) => {
    expect(mapOpenAIFinishReason(finishReason, { refused: false, hasToolCalls })).toBe(expected);
  });

  it('serves a compatible server that sends no usage, ids or tool-call ids', () => {
    const completion = {
      choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: null, tool_calls: [{ id: '', type: 'function', function: { name: 'f', arguments: '{"x":1}' } }] } }],
    } as unknown as ChatCompletion;
    expect(mapOpenAIResponse(completion, { provider: 'openai' })).toEqual({
      content: [{ type: 'tool-call', id: 'call_0', name: 'f', arguments: { x: 1 }, argumentsText: '{"x":1}' }],
      text: '',
      finishReason: 'tool-calls',
      usage: { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 },
    });
  });

  it('throws a server-error ProviderError for a response without choices', () => {
    expect(() => mapOpenAIResponse({ choices: [] } as unknown as ChatCompletion, { provider: 'openai' })).toThrow(
      expect.objectContaining({ name: 'ProviderError', errorKind: 'server-error' }),
    );
  });
});
