import { badResponse, finishPart, type ModelStreamPart, ProviderError, refuseContextWindowStop, shapeOf, type TextPart, type ToolCallPart } from '@keel/provider';
import { parseToolArguments } from '../shared/parse-tool-arguments';
import type { RawMessageStreamEvent } from './anthropic-types';
import { mapAnthropicFinishReason } from './map-finish-reason';
import { mapAnthropicUsage } from './map-usage';
import type { AnthropicUsageFields } from './map-usage';

type BlockState =
  | { readonly type: 'text'; text: string }
  | { readonly type: 'tool'; readonly id: string; readonly name: string; json: string; readonly startInput: unknown; call?: ToolCallPart }
  | { readonly type: 'other' };

type MutableUsage = { -readonly [Key in keyof AnthropicUsageFields]: AnthropicUsageFields[Key] };

function mergeUsage(target: MutableUsage, update: AnthropicUsageFields | null | undefined): void {
  if (update === null || update === undefined) return;
  for (const key of ['input_tokens', 'output_tokens', 'cache_read_input_tokens', 'cache_creation_input_tokens'] as const) {
    const value = update[key];
    if (typeof value === 'number') target[key] = value;
  }
}

/**
 * The input a `content_block_start` already carries. The API opens a tool_use block with
 * `input: {}` and streams the JSON; a proxy that sends the whole input there and no deltas would
 * otherwise lose it.
 */
function startInputText(input: unknown): string {
  if (typeof input !== 'object' || input === null || Array.isArray(input) || Object.keys(input).length === 0) return '';
  try {
    return JSON.stringify(input) ?? '';
  } catch {
    return '';
  }
}

function finishToolCall(block: Extract<BlockState, { type: 'tool' }>): ToolCallPart {
  if (block.json.trim() === '') block.json = startInputText(block.startInput);
  block.call ??= {
    type: 'tool-call',
    id: block.id,
    name: block.name,
    arguments: parseToolArguments(block.json),
    // The input_json_delta pieces joined, exactly as the model wrote them, for core's exact parser.
    ...(block.json.trim() === '' ? {} : { argumentsText: block.json }),
  };
  return block.call;
}

/**
 * Maps a Messages API event stream to Keel stream parts: `text-delta` per text delta,
 * `tool-call-start` when a `tool_use` block opens, `tool-call-delta` per `input_json_delta`,
 * `tool-call` (arguments parsed, and the joined JSON untouched as `argumentsText`) when the block closes, and `finish` with the whole response,
 * its usage merged from `message_start` and `message_delta`. A stream that ends without
 * `message_stop` throws a `network` {@link ProviderError}: a dropped stream never ends silently.
 * An event that breaks the format (no message, block or delta object, a text or JSON delta that is
 * not a string, a nameless tool block) throws a `bad-response` one, retried like the same fault in
 * a whole body.
 */
export async function* mapAnthropicStream(
  events: AsyncIterable<RawMessageStreamEvent>,
  context: { readonly provider: string },
): AsyncGenerator<ModelStreamPart, void, undefined> {
  const blocks = new Map<number, BlockState>();
  const usage: MutableUsage = {};
  let id: string | undefined;
  let model: string | undefined;
  let stopReason: string | null | undefined;
  let stopped = false;

  const bad = (problem: string) => badResponse(context.provider, `a stream event ${problem}`, 'Anthropic');
  /** The object an event carries in `field`; an event without it breaks the format. */
  const inner = <T>(event: object, field: string): T => {
    const value = (event as Record<string, unknown>)[field];
    if (typeof value !== 'object' || value === null) throw bad(`has ${field} that is ${shapeOf(value)}`);
    return value as T;
  };
  for await (const event of events) {
    if (typeof event !== 'object' || event === null) throw bad(`is ${shapeOf(event)}`);
    switch (event.type) {
      case 'message_start':
        inner(event, 'message');
        id = event.message.id;
        model = event.message.model;
        mergeUsage(usage, event.message.usage);
        break;
      case 'content_block_start': {
        const block = inner<typeof event.content_block>(event, 'content_block');
        if (block.type === 'text') {
          if (typeof block.text !== 'string') throw bad('opens a text block without text');
          blocks.set(event.index, { type: 'text', text: block.text });
          if (block.text !== '') yield { type: 'text-delta', text: block.text };
        } else if (block.type === 'tool_use') {
          if (typeof block.id !== 'string' || typeof block.name !== 'string') throw bad('opens a tool_use block without a string id and name');
          blocks.set(event.index, { type: 'tool', id: block.id, name: block.name, json: '', startInput: block.input });
          yield { type: 'tool-call-start', id: block.id, name: block.name };
        } else {
          blocks.set(event.index, { type: 'other' });
        }
        break;
      }
      case 'content_block_delta': {
        const block = blocks.get(event.index);
        const delta = inner<typeof event.delta>(event, 'delta');
        if ((delta.type === 'text_delta' && typeof delta.text !== 'string') || (delta.type === 'input_json_delta' && typeof delta.partial_json !== 'string')) {
          throw bad(`has a ${delta.type} that is not a string`);
        }
        if (event.delta.type === 'text_delta' && block?.type === 'text') {
          block.text += event.delta.text;
          yield { type: 'text-delta', text: event.delta.text };
        } else if (event.delta.type === 'input_json_delta' && block?.type === 'tool') {
          block.json += event.delta.partial_json;
          if (event.delta.partial_json !== '') yield { type: 'tool-call-delta', id: block.id, argumentsDelta: event.delta.partial_json };
        }
        break;
      }
      case 'content_block_stop': {
        const block = blocks.get(event.index);
        if (block?.type === 'tool') yield { type: 'tool-call', call: finishToolCall(block) };
        break;
      }
      case 'message_delta':
        stopReason = inner<typeof event.delta>(event, 'delta').stop_reason;
        mergeUsage(usage, event.usage);
        break;
      case 'message_stop':
        stopped = true;
        break;
    }
  }

  if (!stopped) {
    throw new ProviderError({
      message: 'Anthropic stream ended before message_stop: the connection dropped mid-way',
      errorKind: 'network',
      provider: context.provider,
    });
  }

  const content: (TextPart | ToolCallPart)[] = [];
  for (const index of [...blocks.keys()].sort((left, right) => left - right)) {
    const block = blocks.get(index);
    if (block?.type === 'text') content.push({ type: 'text', text: block.text });
    else if (block?.type === 'tool') content.push(finishToolCall(block));
  }
  refuseContextWindowStop(stopReason, context.provider, 'Anthropic');
  yield finishPart({ content, finishReason: mapAnthropicFinishReason(stopReason), usage: mapAnthropicUsage(usage), modelId: model, responseId: id });
}
