import type { ModelResponse, TextPart, ToolCallPart } from '@keel/core';
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
 * Maps a Messages API response: `text` blocks → text parts, `tool_use` blocks → tool calls (the
 * `input` object as arguments), other blocks (thinking, server tools) are left out; `text` joins
 * the text parts; the stop reason and usage are mapped.
 */
export function mapAnthropicResponse(message: AnthropicMessageFields): ModelResponse {
  const content: (TextPart | ToolCallPart)[] = [];
  for (const block of message.content) {
    if (block.type === 'text') content.push({ type: 'text', text: block.text });
    else if (block.type === 'tool_use') content.push({ type: 'tool-call', id: block.id, name: block.name, arguments: block.input });
  }
  return {
    content,
    text: content.map((part) => (part.type === 'text' ? part.text : '')).join(''),
    finishReason: mapAnthropicFinishReason(message.stop_reason),
    usage: mapAnthropicUsage(message.usage),
    ...(message.model === undefined ? {} : { modelId: message.model }),
    ...(message.id === undefined ? {} : { responseId: message.id }),
  };
}
