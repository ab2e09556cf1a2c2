import type { Message } from '../spec/message';

/** What a model without prefill is told after its cut answer (`ModelRequest.continueFrom`). */
export const CONTINUE_INSTRUCTION =
  'Your reply above was cut off at the token limit. Continue it exactly where it stopped: write only the text that comes next, starting with the very next character. Do not repeat anything already written, and add nothing before or after it.';

/**
 * The messages of a request that continues a cut answer (`ModelRequest.continueFrom`). With
 * `prefill` (an API that continues a trailing assistant message, as Anthropic's Messages API),
 * the cut text as a trailing assistant message: the reply holds only what follows. Without it,
 * the cut text as an assistant message, then {@link CONTINUE_INSTRUCTION}. The cut text is sent
 * without trailing white space (APIs refuse a prefill that ends in it), and every added message
 * is ephemeral: never a cache breakpoint, never kept. Without `continueFrom`, the messages as
 * they are.
 */
export function withContinuation(messages: readonly Message[], continueFrom: string | undefined, options: { readonly prefill: boolean }): readonly Message[] {
  if (continueFrom === undefined || continueFrom.trim() === '') return messages;
  const assistant: Message = { role: 'assistant', content: [{ type: 'text', text: continueFrom.trimEnd() }], ephemeral: true };
  if (options.prefill) return [...messages, assistant];
  return [...messages, assistant, { role: 'user', content: CONTINUE_INSTRUCTION, ephemeral: true }];
}
