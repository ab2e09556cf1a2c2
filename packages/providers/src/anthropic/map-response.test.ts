import { describe, expect, it } from 'vitest';
import { mapAnthropicFinishReason } from './map-finish-reason';
import { mapAnthropicResponse } from './map-response';

describe('mapAnthropicResponse', () => {
  it.each([
    ['end_turn', 'stop'],
    ['stop_sequence', 'stop'],
    ['tool_use', 'tool-calls'],
    ['max_tokens', 'length'],
    ['refusal', 'refusal'],
    ['pause_turn', 'other'],
    [null, 'other'],
  ] as const)('maps stop_reason %s to %s', (stopReason, finishReason) => {
    expect(mapAnthropicFinishReason(stopReason)).toBe(finishReason);
  });

  it('keeps text and tool calls in order, leaves out other blocks and joins the text', () => {
    const response = mapAnthropicResponse({
      content: [
        { type: 'thinking', thinking: 'Hmm.', signature: 'sig' },
        { type: 'text', text: 'A', citations: null },
        { type: 'tool_use', id: 't1', name: 'f', input: { x: 1 }, caller: { type: 'direct' } },
        { type: 'text', text: 'B', citations: null },
      ] as never,
      stop_reason: 'tool_use',
    });
    expect(response).toEqual({
      content: [
        { type: 'text', text: 'A' },
        { type: 'tool-call', id: 't1', name: 'f', arguments: { x: 1 }, argumentsText: '{"x":1}' },
        { type: 'text', text: 'B' },
      ],
      text: 'AB',
      finishReason: 'tool-calls',
      usage: { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 },
    });
  });
});
