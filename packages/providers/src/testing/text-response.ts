import type { ModelResponse } from '@keel/core';
import type { ModelUsage } from '@keel/core/internal';

/** The response an adapter should give for a plain text answer that stopped on its own. */
export function textResponse(text: string, ids: { readonly modelId: string; readonly responseId: string }, usage: ModelUsage): ModelResponse {
  return { content: [{ type: 'text', text }], text, finishReason: 'stop', usage, modelId: ids.modelId, responseId: ids.responseId };
}
