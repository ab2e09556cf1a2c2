import type { ModelResponse, ModelStreamPart, TokenUsage } from '@keel/provider';

/** The response an adapter should give for a plain text answer that stopped on its own. */
export function textResponse(text: string, ids: { readonly modelId: string; readonly responseId: string }, usage: TokenUsage): ModelResponse {
  return { content: [{ type: 'text', text }], text, finishReason: 'stop', usage, modelId: ids.modelId, responseId: ids.responseId };
}

/** The parts an adapter should stream for a plain text answer: each delta, then the finished response. */
export function textStreamParts(deltas: readonly string[], ids: { readonly modelId: string; readonly responseId: string }, usage: TokenUsage): ModelStreamPart[] {
  return [...deltas.map((text): ModelStreamPart => ({ type: 'text-delta', text })), { type: 'finish', response: textResponse(deltas.join(''), ids, usage) }];
}
