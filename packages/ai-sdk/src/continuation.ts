import type { Message, ModelRequest } from '@keel/core';

/** What a model without prefill is told after its cut answer (`ModelRequest.continueFrom`). */
export const CONTINUE_INSTRUCTION =
  'Your reply above was cut off at the token limit. Continue it exactly where it stopped: write only the text that comes next, starting with the very next character. Do not repeat anything already written, and add nothing before or after it.';

/** Providers whose API continues a trailing assistant message (prefill): Claude, direct, on Vertex or on Bedrock. */
function takesPrefill(provider: string): boolean {
  return provider === 'anthropic' || provider.startsWith('anthropic.') || provider.startsWith('vertex.anthropic') || provider.startsWith('amazon-bedrock') || provider.startsWith('bedrock');
}

/**
 * The messages of a request that continues a cut answer (`continueFrom`): for Claude (Anthropic,
 * Vertex, Bedrock) the cut text as a trailing assistant message, which the API continues
 * (prefill); for every other provider the cut text as an assistant message, then an instruction to
 * continue exactly where it stopped. Both ephemeral: never a cache breakpoint, never kept.
 * Without `continueFrom`, the messages as they are.
 */
export function withContinuation(request: Pick<ModelRequest, 'messages' | 'continueFrom'>, provider: string): readonly Message[] {
  const cut = request.continueFrom;
  if (cut === undefined || cut.trim() === '') return request.messages;
  const assistant: Message = { role: 'assistant', content: [{ type: 'text', text: cut.trimEnd() }], ephemeral: true };
  if (takesPrefill(provider)) return [...request.messages, assistant];
  return [...request.messages, assistant, { role: 'user', content: CONTINUE_INSTRUCTION, ephemeral: true }];
}
