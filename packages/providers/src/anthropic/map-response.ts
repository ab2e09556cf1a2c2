import { badResponse, type ModelResponse, refuseContextWindowStop, responseOf, shapeOf, type TextPart, type ToolCallPart } from '@keel/provider';
import type { ContentBlock } from './anthropic-types';
import { mapAnthropicFinishReason } from './map-finish-reason';
import { mapAnthropicUsage } from './map-usage';
import type { AnthropicUsageFields } from './map-usage';

/** The fields of a Messages API response the adapter reads. */
export interface AnthropicMessageFields {
  readonly id?: string;
  readonly model?: string;
  readonly content: readonly ContentBlock[];
  readonly stop_reason?: string | null;
  readonly usage?: AnthropicUsageFields | null;
}

/**
 * The `argumentsText` of a non-streamed `tool_use` block. The API sends `input` already parsed
 * (an object, not text), so its text is `JSON.stringify(input)`: there is nothing rawer to hand
 * core. That is faithful because the vendor parsed the model's JSON before sending it: duplicate
 * keys were already collapsed there, and this response body was read with `JSON.parse`, so a
 * number beyond a double's precision was already rounded in transit (a stream, whose
 * `input_json_delta` text is kept as it is, has neither loss).
 */
function argumentsTextOf(input: unknown): { argumentsText?: string } {
  if (typeof input !== 'object' || input === null) return {};
  try {
    const text = JSON.stringify(input);
    return typeof text === 'string' ? { argumentsText: text } : {};
  } catch {
    return {};
  }
}

/**
 * Maps a Messages API response: `text` blocks → text parts, `tool_use` blocks → tool calls (the
 * `input` object as arguments, its JSON text as `argumentsText`), other blocks (thinking, server tools) are left out; `text` joins
 * the text parts; the stop reason and usage are mapped. A body that breaks the format throws a
 * `bad-response` ProviderError.
 */
export function mapAnthropicResponse(message: AnthropicMessageFields, provider = 'anthropic'): ModelResponse {
  const bad = (problem: string) => badResponse(provider, problem, 'Anthropic');
  if (typeof message !== 'object' || message === null) throw bad(`the body is ${shapeOf(message)}`);
  if (!Array.isArray(message.content)) throw bad(`content is ${shapeOf(message.content)}, not a list`);
  const content: (TextPart | ToolCallPart)[] = [];
  for (const block of message.content as readonly unknown[]) {
    if (typeof block !== 'object' || block === null) throw bad(`a content block is ${shapeOf(block)}`);
    const typed = block as ContentBlock;
    if (typed.type === 'text') {
      if (typeof typed.text !== 'string') throw bad(`a text block's text is ${shapeOf(typed.text)}`);
      content.push({ type: 'text', text: typed.text });
    } else if (typed.type === 'tool_use') {
      if (typeof typed.id !== 'string' || typeof typed.name !== 'string') throw bad('a tool_use block has no string id and name');
      content.push({ type: 'tool-call', id: typed.id, name: typed.name, arguments: typed.input, ...argumentsTextOf(typed.input) });
    }
  }
  refuseContextWindowStop(message.stop_reason, provider, 'Anthropic');
  return responseOf({ content, finishReason: mapAnthropicFinishReason(message.stop_reason), usage: mapAnthropicUsage(message.usage), modelId: message.model, responseId: message.id });
}
