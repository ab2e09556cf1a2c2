import { type ModelRequest, withContinuation } from '@keel/provider';
import { mapOpenAIMessages } from './map-messages';
import { mapOpenAIResponseFormat } from './map-response-format';
import { mapOpenAIToolChoice, mapOpenAITools } from './map-tools';
import type { ChatCompletionCreateParamsNonStreaming } from './openai-types';

/** Settings the provider adds to every request. */
export interface OpenAIRequestSettings {
  /** The resolved model id. */
  readonly model: string;
  /** The body field that carries the token limit. */
  readonly maxTokensField: 'max_tokens' | 'max_completion_tokens';
}

/**
 * Maps a Keel request to a Chat Completions body (without `stream`): messages, tools (`strict`
 * where asked) and tool choice, native structured output when core asks for it (strict
 * `response_format`, sent beside the tools: the model may still call them), the token limit (`max_tokens` by default, the field
 * OpenAI-compatible servers read; `max_completion_tokens` for models that require it),
 * temperature and `stop`.
 */
export function mapOpenAIRequest(request: ModelRequest, settings: OpenAIRequestSettings): ChatCompletionCreateParamsNonStreaming {
  const tools = request.tools ?? [];
  const responseFormat = mapOpenAIResponseFormat(request.responseFormat);
  return {
    model: settings.model,
    messages: mapOpenAIMessages(request.system, withContinuation(request.messages, request.continueFrom, { prefill: false })),
    ...(tools.length === 0 ? {} : { tools: mapOpenAITools(tools) }),
    ...(tools.length === 0 || request.toolChoice === undefined ? {} : { tool_choice: mapOpenAIToolChoice(request.toolChoice) }),
    ...(responseFormat === undefined ? {} : { response_format: responseFormat }),
    ...(request.maxTokens === undefined ? {} : { [settings.maxTokensField]: request.maxTokens }),
    ...(request.temperature === undefined ? {} : { temperature: request.temperature }),
    ...(request.stop === undefined || request.stop.length === 0 ? {} : { stop: [...request.stop] }),
  };
}
