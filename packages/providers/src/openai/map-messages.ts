import type { Message } from '@keel/provider';
import { stringifyToolArguments } from '../shared/stringify-tool-arguments';
import { mapOpenAIAttachment } from './map-attachments';
import type { ChatCompletionMessageParam } from './openai-types';

function mapMessage(message: Message): ChatCompletionMessageParam[] {
  switch (message.role) {
    case 'system':
      return message.content.trim() === '' ? [] : [{ role: 'system', content: message.content }];
    case 'user':
      if (message.attachments === undefined || message.attachments.length === 0) return [{ role: 'user', content: message.content }];
      return [{ role: 'user', content: [...message.attachments.map(mapOpenAIAttachment), ...(message.content === '' ? [] : [{ type: 'text' as const, text: message.content }])] }];
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
 * Maps Keel messages to Chat Completions messages: the system prompt first, user text (a list of
 * parts, images and files first, when the message has attachments), assistant
 * text and `tool_calls` (arguments as JSON strings), and one `role: 'tool'` message per tool
 * result. An assistant turn with neither text nor tool calls is left out.
 */
export function mapOpenAIMessages(system: string | undefined, messages: readonly Message[]): ChatCompletionMessageParam[] {
  const systemMessages: ChatCompletionMessageParam[] = system === undefined || system.trim() === '' ? [] : [{ role: 'system', content: system }];
  return [...systemMessages, ...messages.flatMap(mapMessage)];
}
