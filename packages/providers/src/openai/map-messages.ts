import type { Message } from '@keel/core';
import { stringifyToolArguments } from '../shared/stringify-tool-arguments';
import type { ChatCompletionMessageParam } from './openai-types';

function mapMessage(message: Message): ChatCompletionMessageParam[] {
  switch (message.role) {
    case 'system':
      return message.content.trim() === '' ? [] : [{ role: 'system', content: message.content }];
    case 'user':
      return [{ role: 'user', content: message.content }];
    case 'assistant': {
      let text = '';
      const toolCalls = [];
      for (const part of message.content) {
        if (part.type === 'text') text += part.text;
        else toolCalls.push({ id: part.id, type: 'function' as const, function: { name: part.name, arguments: stringifyToolArguments(part.arguments) } });
      }
      if (text === '' && toolCalls.length === 0) return [];
      return [{ role: 'assistant', content: text === '' ? null : text, ...(toolCalls.length === 0 ? {} : { tool_calls: toolCalls }) }];
    }
    case 'tool':
      return message.content.map((result) => ({ role: 'tool' as const, tool_call_id: result.toolCallId, content: result.output }));
  }
}

/**
 * Maps Keel messages to Chat Completions messages: the system prompt first, user text, assistant
 * text and `tool_calls` (arguments as JSON strings), and one `role: 'tool'` message per tool
 * result. An assistant turn with neither text nor tool calls is left out.
 */
export function mapOpenAIMessages(system: string | undefined, messages: readonly Message[]): ChatCompletionMessageParam[] {
  const systemMessages: ChatCompletionMessageParam[] = system === undefined || system.trim() === '' ? [] : [{ role: 'system', content: system }];
  return [...systemMessages, ...messages.flatMap(mapMessage)];
}

/** What an OpenAI-compatible model is told after its cut answer (`ModelRequest.continueFrom`). */
export const CONTINUE_INSTRUCTION =
  'Your reply above was cut off at the token limit. Continue it exactly where it stopped: write only the text that comes next, starting with the very next character. Do not repeat anything already written, and add nothing before or after it.';

/**
 * The messages of a request that continues a cut answer: the cut text as an assistant message,
 * then an instruction to continue exactly where it stopped (Chat Completions has no prefill).
 * Both ephemeral. Without `continueFrom`, the messages as they are.
 */
export function withContinuation(messages: readonly Message[], continueFrom: string | undefined): readonly Message[] {
  if (continueFrom === undefined || continueFrom === '') return messages;
  return [...messages, { role: 'assistant', content: [{ type: 'text', text: continueFrom }], ephemeral: true }, { role: 'user', content: CONTINUE_INSTRUCTION, ephemeral: true }];
}
