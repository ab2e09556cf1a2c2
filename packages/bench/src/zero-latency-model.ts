import type { ModelRequest, ModelResponse } from '@keel/core';
import type { ModelProviderV1 } from '@keel/provider';

/**
 * An in-process model with no latency that answers from fixed responses by turn: the first call
 * of a conversation asks for a tool, the next gives the final JSON. Records nothing, so it adds
 * neither time nor heap of its own.
 */
export function zeroLatencyModel(toolTurn: ModelResponse, finalTurn: ModelResponse): ModelProviderV1 & { answer(messageCount: number): ModelResponse } {
  const answer = (messageCount: number) => (messageCount <= 1 ? toolTurn : finalTurn);
  return {
    specificationVersion: 'v1',
    name: 'zero-latency',
    answer,
    generate: async (request: ModelRequest) => answer(request.messages.length),
  };
}

const usage = { inputTokens: 120, outputTokens: 20, cacheReadTokens: 0, cacheWriteTokens: 0 };

/** The standard two-turn exchange used by the overhead benchmarks. */
export const toolTurn: ModelResponse = {
  content: [{ type: 'tool-call', id: 'call_1', name: 'lookup_order', arguments: { orderId: 'A-1182' } }],
  text: '',
  finishReason: 'tool-calls',
  usage,
};

export const finalTurn: ModelResponse = {
  content: [{ type: 'text', text: '{"action":"refund","amount":50}' }],
  text: '{"action":"refund","amount":50}',
  finishReason: 'stop',
  usage,
};
