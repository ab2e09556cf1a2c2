import { describe, expect, it } from 'vitest';
import { collectStream } from '../testing/collect-stream';
import { mapOpenAIStream } from './map-stream';
import type { ChatCompletionChunk } from './openai-types';

async function* chunks(...deltas: { delta: Record<string, unknown>; finish_reason?: string | null }[]): AsyncGenerator<ChatCompletionChunk> {
  for (const { delta, finish_reason = null } of deltas) {
    yield { id: 'c', object: 'chat.completion.chunk', created: 0, model: 'llama3.2', choices: [{ index: 0, delta, finish_reason }] } as ChatCompletionChunk;
  }
}

describe('mapOpenAIStream', () => {
  it('handles a whole tool call in one chunk without an id, as some local servers send it', async () => {
    const parts = await collectStream(
      mapOpenAIStream(chunks({ delta: { role: 'assistant', tool_calls: [{ index: 0, function: { name: 'f', arguments: '{"x":1}' } }] } }, { delta: {}, finish_reason: 'stop' }), { provider: 'openai' }),
    );
    expect(parts.slice(0, 3)).toEqual([
      { type: 'tool-call-start', id: 'call_0', name: 'f' },
      { type: 'tool-call-delta', id: 'call_0', argumentsDelta: '{"x":1}' },
      { type: 'tool-call', call: { type: 'tool-call', id: 'call_0', name: 'f', arguments: { x: 1 }, argumentsText: '{"x":1}' } },
    ]);
    expect(parts[3]).toMatchObject({ type: 'finish', response: { finishReason: 'tool-calls', modelId: 'llama3.2' } });
  });

  it('reports a streamed refusal', async () => {
    const parts = await collectStream(mapOpenAIStream(chunks({ delta: { refusal: "I can't" } }, { delta: { refusal: ' help.' }, finish_reason: 'stop' }), { provider: 'openai' }));
    expect(parts.at(-1)).toMatchObject({ type: 'finish', response: { finishReason: 'refusal', text: "I can't help." } });
  });
});
