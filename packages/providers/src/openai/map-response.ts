import { badResponse, type ModelResponse, ProviderError, responseOf, shapeOf, type TextPart, type ToolCallPart } from '@keel/provider';
import { parseToolArguments } from '../shared/parse-tool-arguments';
import { mapOpenAIFinishReason } from './map-finish-reason';
import { mapOpenAIUsage } from './map-usage';
import type { ChatCompletion, ChatCompletionMessageToolCall } from './openai-types';

function mapToolCall(call: ChatCompletionMessageToolCall, index: number): ToolCallPart {
  const id = typeof call.id === 'string' && call.id !== '' ? call.id : `call_${index}`;
  if (call.type === 'custom') return { type: 'tool-call', id, name: call.custom.name, arguments: call.custom.input };
  const text = call.function.arguments as unknown;
  return {
    type: 'tool-call',
    id,
    name: call.function.name,
    arguments: parseToolArguments(text),
    // The text exactly as the model wrote it: core reads it with its exact parser (duplicate keys
    // and numbers a double cannot hold fail validation instead of changing silently).
    ...(typeof text === 'string' && text.trim() !== '' ? { argumentsText: text } : {}),
  };
}

/**
 * Maps a Chat Completions response (first choice): the text, then the tool calls (arguments
 * parsed, the raw string when not valid JSON, and `argumentsText`, the raw `function.arguments`
 * untouched). A `refusal` is reported as text with finish
 * reason `refusal`. A response without choices throws a `server-error` {@link ProviderError}; a
 * body that breaks the format (no choices list, a non-string content, a nameless tool call) a
 * `bad-response` one.
 */
export function mapOpenAIResponse(completion: ChatCompletion, context: { readonly provider: string }): ModelResponse {
  const bad = (problem: string) => badResponse(context.provider, problem, 'OpenAI');
  if (typeof completion !== 'object' || completion === null) throw bad(`the body is ${shapeOf(completion)}`);
  if (!Array.isArray(completion.choices)) throw bad(`choices is ${shapeOf(completion.choices)}, not a list`);
  const choice = completion.choices[0];
  if (choice === undefined) {
    throw new ProviderError({ message: 'OpenAI response had no choices', errorKind: 'server-error', provider: context.provider });
  }
  const { message } = choice;
  if (typeof message !== 'object' || message === null) throw bad(`the choice's message is ${shapeOf(message)}`);
  for (const [field, value] of [['content', message.content], ['refusal', message.refusal]] as const) {
    if (value !== undefined && value !== null && typeof value !== 'string') throw bad(`message.${field} is ${shapeOf(value)}, not a string`);
  }
  if (message.tool_calls !== undefined && message.tool_calls !== null && !Array.isArray(message.tool_calls)) throw bad(`tool_calls is ${shapeOf(message.tool_calls)}, not a list`);
  for (const call of message.tool_calls ?? []) {
    const name = call?.type === 'custom' ? call.custom?.name : call?.function?.name;
    if (typeof name !== 'string') throw bad('a tool call has no function name');
  }
  const refusal = message.refusal ?? '';
  const text = (message.content ?? '') + refusal;
  const toolCalls = (message.tool_calls ?? []).map(mapToolCall);
  const content: (TextPart | ToolCallPart)[] = [...(text === '' ? [] : [{ type: 'text' as const, text }]), ...toolCalls];
  return responseOf({ content, finishReason: mapOpenAIFinishReason(choice.finish_reason, { refused: refusal !== '', hasToolCalls: toolCalls.length > 0 }), usage: mapOpenAIUsage(completion.usage), modelId: completion.model, responseId: completion.id });
}
