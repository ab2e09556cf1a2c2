import { type ModelRequest, withContinuation } from '@keel/provider';
import type { MessageCreateParamsNonStreaming, TextBlockParam } from './anthropic-types';
import { ephemeralCacheControl } from './cache-control';
import { mapAnthropicMessages } from './map-messages';
import { mapAnthropicTools, mapAnthropicToolChoice } from './map-tools';

/** Settings the provider adds to every request. */
export interface AnthropicRequestSettings {
  /** The resolved model id. */
  readonly model: string;
  /** `max_tokens` when the request gives none (the API requires one). */
  readonly maxTokens: number;
  /** Place prompt-cache breakpoints. */
  readonly cache: boolean;
}

/** The system prompt: the request's, then any system messages, joined by blank lines. */
function systemTextOf(request: ModelRequest): string {
  const parts = [request.system ?? '', ...request.messages.map((message) => (message.role === 'system' ? message.content : ''))];
  return parts.filter((part) => part.trim() !== '').join('\n\n');
}

function mapSystem(text: string, cache: boolean): string | TextBlockParam[] {
  return cache ? [{ type: 'text', text, cache_control: ephemeralCacheControl }] : text;
}

/**
 * The native output format of a request: `output_config.format` with the (already lowered)
 * schema when core asks for strict output; nothing otherwise (the Messages API has no
 * non-strict JSON mode, and Keel validates the output either way).
 */
function outputConfigOf(request: ModelRequest): Pick<MessageCreateParamsNonStreaming, 'output_config'> {
  const format = request.responseFormat;
  if (format?.strict !== true || format.schema === undefined) return {};
  return { output_config: { format: { type: 'json_schema', schema: { ...format.schema } } } };
}

/**
 * Maps a Keel request to a Messages API body (without `stream`): model, `max_tokens`, system,
 * alternating turns, tools (`strict: true` where asked) and tool choice, the native output format
 * (`output_config.format`, sent beside the tools: the model may still call them), temperature and
 * stop sequences. With `cache`, cache breakpoints go on the system prompt, the last tool and the
 * last non-ephemeral message.
 */
export function mapAnthropicRequest(request: ModelRequest, settings: AnthropicRequestSettings): MessageCreateParamsNonStreaming {
  const system = systemTextOf(request);
  const tools = request.tools ?? [];
  return {
    model: settings.model,
    max_tokens: request.maxTokens ?? settings.maxTokens,
    ...(system === '' ? {} : { system: mapSystem(system, settings.cache) }),
    messages: mapAnthropicMessages(withContinuation(request.messages, request.continueFrom, { prefill: true }), { cache: settings.cache }),
    ...(tools.length === 0 ? {} : { tools: mapAnthropicTools(tools, { cache: settings.cache }) }),
    ...(tools.length === 0 || request.toolChoice === undefined ? {} : { tool_choice: mapAnthropicToolChoice(request.toolChoice) }),
    ...outputConfigOf(request),
    ...(request.temperature === undefined ? {} : { temperature: request.temperature }),
    ...(request.stop === undefined || request.stop.length === 0 ? {} : { stop_sequences: [...request.stop] }),
  };
}
