import { badResponse, finishPart, type ModelStreamPart, ProviderError, shapeOf, type TextPart, type ToolCallPart } from '@keel/provider';
import { parseToolArguments } from '../shared/parse-tool-arguments';
import { mapOpenAIFinishReason } from './map-finish-reason';
import { mapOpenAIUsage } from './map-usage';
import type { ChatCompletionChunk, CompletionUsage } from './openai-types';

interface ToolCallState {
  id: string;
  name: string;
  json: string;
  started: boolean;
}

/**
 * Maps a Chat Completions chunk stream (first choice) to Keel stream parts: `text-delta` per
 * content delta, `tool-call-start` once a tool call's id and name are known, `tool-call-delta`
 * per argument delta (tracked by `index`), then a `tool-call` per call (arguments parsed, and the
 * joined deltas untouched as `argumentsText`) and
 * `finish` with the whole response and the usage chunk's counts. A stream that ends before any
 * `finish_reason` throws a `network` {@link ProviderError}: a dropped stream never ends silently.
 * A chunk that breaks the format (not an object, choices or tool calls that are not lists) throws
 * a `bad-response` one, retried like the same fault in a whole body.
 */
export async function* mapOpenAIStream(
  chunks: AsyncIterable<ChatCompletionChunk>,
  context: { readonly provider: string },
): AsyncGenerator<ModelStreamPart, void, undefined> {
  const toolCalls = new Map<number, ToolCallState>();
  let text = '';
  let refusal = '';
  let finishReason: string | null = null;
  let usage: CompletionUsage | undefined;
  let id: string | undefined;
  let model: string | undefined;

  const bad = (problem: string) => badResponse(context.provider, `a stream chunk ${problem}`, 'OpenAI');
  for await (const chunk of chunks) {
    if (typeof chunk !== 'object' || chunk === null) throw bad(`is ${shapeOf(chunk)}`);
    if (typeof chunk.id === 'string' && chunk.id !== '') id ??= chunk.id;
    if (typeof chunk.model === 'string' && chunk.model !== '') model ??= chunk.model;
    if (chunk.usage !== undefined && chunk.usage !== null) usage = chunk.usage;
    if (chunk.choices !== undefined && chunk.choices !== null && !Array.isArray(chunk.choices)) throw bad(`has choices that are ${shapeOf(chunk.choices)}, not a list`);
    const choice = chunk.choices?.[0];
    if (choice === undefined) continue;
    if (typeof choice !== 'object' || choice === null) throw bad(`has a choice that is ${shapeOf(choice)}`);
    const delta = choice.delta ?? {};
    if (typeof delta !== 'object') throw bad(`has a delta that is ${shapeOf(delta)}`);
    if (delta.tool_calls !== undefined && delta.tool_calls !== null && !Array.isArray(delta.tool_calls)) throw bad(`has tool_calls that are ${shapeOf(delta.tool_calls)}, not a list`);
    if (typeof delta.content === 'string' && delta.content !== '') {
      text += delta.content;
      yield { type: 'text-delta', text: delta.content };
    }
    if (typeof delta.refusal === 'string') refusal += delta.refusal;
    for (const toolDelta of delta.tool_calls ?? []) {
      let state = toolCalls.get(toolDelta.index);
      if (state === undefined) {
        state = { id: '', name: '', json: '', started: false };
        toolCalls.set(toolDelta.index, state);
      }
      if (toolDelta.id !== undefined && toolDelta.id !== '' && state.id === '') state.id = toolDelta.id;
      if (toolDelta.function?.name !== undefined && toolDelta.function.name !== '' && state.name === '') state.name = toolDelta.function.name;
      if (!state.started && state.name !== '') {
        if (state.id === '') state.id = `call_${toolDelta.index}`;
        state.started = true;
        yield { type: 'tool-call-start', id: state.id, name: state.name };
        if (state.json !== '') yield { type: 'tool-call-delta', id: state.id, argumentsDelta: state.json };
      }
      const argumentsDelta = toolDelta.function?.arguments ?? '';
      if (argumentsDelta !== '') {
        state.json += argumentsDelta;
        if (state.started) yield { type: 'tool-call-delta', id: state.id, argumentsDelta };
      }
    }
    if (choice.finish_reason !== null && choice.finish_reason !== undefined) finishReason = choice.finish_reason;
  }

  if (finishReason === null) {
    throw new ProviderError({
      message: 'OpenAI stream ended before a finish_reason: the connection dropped mid-way',
      errorKind: 'network',
      provider: context.provider,
    });
  }

  const calls: ToolCallPart[] = [];
  for (const index of [...toolCalls.keys()].sort((left, right) => left - right)) {
    const state = toolCalls.get(index);
    if (state === undefined) continue;
    const call: ToolCallPart = {
      type: 'tool-call',
      id: state.id === '' ? `call_${index}` : state.id,
      name: state.name,
      arguments: parseToolArguments(state.json),
      // The argument deltas joined, exactly as the model wrote them, for core's exact parser.
      ...(state.json.trim() === '' ? {} : { argumentsText: state.json }),
    };
    calls.push(call);
    yield { type: 'tool-call', call };
  }
  const fullText = text + refusal;
  const content: (TextPart | ToolCallPart)[] = [...(fullText === '' ? [] : [{ type: 'text' as const, text: fullText }]), ...calls];
  yield finishPart({ content, finishReason: mapOpenAIFinishReason(finishReason, { refused: refusal !== '', hasToolCalls: calls.length > 0 }), usage: mapOpenAIUsage(usage), modelId: model, responseId: id });
}
