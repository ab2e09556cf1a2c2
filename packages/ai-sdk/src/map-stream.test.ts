import type { LanguageModelV3StreamPart } from '@ai-sdk/provider';
import { type ModelStreamPart, ProviderError } from '@keel/provider';
import { convertArrayToReadableStream, MockLanguageModelV3 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { fromAISDK } from './from-ai-sdk';
import { specUsage, textResult, textStreamParts } from './testing/mock-results';

const request = { model: 'mock-model-1', messages: [{ role: 'user' as const, content: 'hi' }] };

async function collect(stream: AsyncIterable<ModelStreamPart> | undefined) {
  const parts: ModelStreamPart[] = [];
  for await (const part of stream ?? []) parts.push(part);
  return parts;
}

/** A stream that records how far it was read and whether it was cancelled. */
function recordingStream(parts: readonly unknown[], options: { hangAfter?: number } = {}) {
  const state = { pulled: 0, cancelled: false };
  const stream = new ReadableStream<unknown>({
    pull(controller) {
      if (options.hangAfter !== undefined && state.pulled >= options.hangAfter) return new Promise<void>(() => undefined);
      const part = parts[state.pulled++];
      if (part === undefined) controller.close();
      else controller.enqueue(part);
      return undefined;
    },
    cancel() {
      state.cancelled = true;
    },
  }, { highWaterMark: 0 });
  return { stream, state };
}

const streaming = (stream: ReadableStream<unknown>) => fromAISDK(new MockLanguageModelV3({ modelId: 'mock-model-1', doStream: async () => ({ stream: stream as ReadableStream<LanguageModelV3StreamPart> }) }));

describe('the stream of an AI SDK model', () => {
  it('text in two blocks and a tool call keep their order in the finished answer', async () => {
    const parts: LanguageModelV3StreamPart[] = [
      { type: 'text-start', id: 'a' },
      { type: 'text-delta', id: 'a', delta: 'Checking.' },
      { type: 'text-end', id: 'a' },
      { type: 'tool-input-start', id: 'call-1', toolName: 'add' },
      { type: 'tool-input-delta', id: 'call-1', delta: '{"a":1,' },
      { type: 'tool-input-delta', id: 'call-1', delta: '"b":2}' },
      { type: 'tool-input-end', id: 'call-1' },
      { type: 'tool-call', toolCallId: 'call-1', toolName: 'add', input: '{"a":1,"b":2}' },
      { type: 'reasoning-start', id: 'r' },
      { type: 'reasoning-delta', id: 'r', delta: 'hidden' },
      { type: 'finish', finishReason: { unified: 'tool-calls', raw: 'tool_use' }, usage: specUsage(10, 5, 4) },
    ];
    const out = await collect(streaming(convertArrayToReadableStream(parts)).stream?.(request, {}));
    expect(out.map((part) => part.type)).toEqual(['text-delta', 'tool-call-start', 'tool-call-delta', 'tool-call-delta', 'tool-call', 'finish']);
    const finish = out.at(-1);
    expect(finish?.type === 'finish' && finish.response).toEqual({
      content: [{ type: 'text', text: 'Checking.' }, { type: 'tool-call', id: 'call-1', name: 'add', arguments: { a: 1, b: 2 }, argumentsText: '{"a":1,"b":2}' }],
      text: 'Checking.',
      finishReason: 'tool-calls',
      usage: { inputTokens: 6, outputTokens: 5, cacheReadTokens: 4, cacheWriteTokens: 0 },
    });
  });

  it('interleaved text parts: the finished answer says what the stream showed, in stream order', async () => {
    const parts: LanguageModelV3StreamPart[] = [
      { type: 'text-start', id: 'a' },
      { type: 'text-delta', id: 'a', delta: 'Transfer ' },
      { type: 'text-start', id: 'b' },
      { type: 'text-delta', id: 'b', delta: 'not ' },
      { type: 'text-delta', id: 'a', delta: 'approved.' },
      { type: 'text-end', id: 'b' },
      { type: 'text-end', id: 'a' },
      { type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage: specUsage(10, 5, 0) },
    ];
    const out = await collect(streaming(convertArrayToReadableStream(parts)).stream?.(request, {}));
    const streamed = out.map((part) => (part.type === 'text-delta' ? part.text : '')).join('');
    const finish = out.at(-1);
    expect(streamed).toBe('Transfer not approved.');
    expect(finish?.type === 'finish' && finish.response.text).toBe(streamed);
    expect(finish?.type === 'finish' && finish.response.content).toEqual([{ type: 'text', text: 'Transfer not approved.' }]);
  });

  it('stops reading at finish and cancels the stream, so the connection is let go', async () => {
    const { stream, state } = recordingStream([...textStreamParts(['a']), { type: 'text-delta', id: 't1', delta: 'after the end' }]);
    const out = await collect(streaming(stream).stream?.(request, {}));
    expect(out.filter((part) => part.type === 'text-delta')).toHaveLength(1);
    expect(state.cancelled).toBe(true);
  });

  it('a consumer that leaves early cancels the stream', async () => {
    const { stream, state } = recordingStream(textStreamParts(['a', 'b', 'c']));
    for await (const part of streaming(stream).stream?.(request, {}) ?? []) if (part.type === 'text-delta') break;
    expect(state.cancelled).toBe(true);
  });

  it('ends with no finish part: a network error, never a short answer', async () => {
    const error = await collect(streaming(convertArrayToReadableStream(textStreamParts(['a']).slice(0, -1))).stream?.(request, {})).catch((caught: unknown) => caught);
    expect(ProviderError.isInstance(error) && error.errorKind).toBe('network');
  });

  it('an error part throws its mapped error', async () => {
    const parts = [...textStreamParts(['a']).slice(0, 4), { type: 'error', error: { type: 'rate_limit_error', message: 'slow down' } }];
    const error = await collect(streaming(convertArrayToReadableStream(parts)).stream?.(request, {})).catch((caught: unknown) => caught);
    expect(ProviderError.isInstance(error) && error.errorKind).toBe('rate-limit');
  });

  it('parts off the spec are a retried bad-response, not a TypeError', async () => {
    for (const broken of [null, 'text', { type: 'text-delta', id: 't', delta: 42 }, { type: 'tool-call', toolCallId: 7, toolName: 'x', input: '{}' }]) {
      const error = await collect(streaming(convertArrayToReadableStream([broken])).stream?.(request, {})).catch((caught: unknown) => caught);
      expect(ProviderError.isInstance(error) && [error.errorKind, error.retryable]).toEqual(['bad-response', true]);
    }
  });

  it('an abort ends the read promptly even when the model ignores its signal, and cancels the stream', async () => {
    const { stream, state } = recordingStream(textStreamParts(['a']), { hangAfter: 2 });
    const controller = new AbortController();
    const pending = collect(streaming(stream).stream?.(request, { signal: controller.signal })).catch((caught: unknown) => caught);
    setTimeout(() => controller.abort(new Error('user left')), 10);
    const error = await pending;
    expect(ProviderError.isInstance(error) && error.errorKind).toBe('aborted');
    expect(state.cancelled).toBe(true);
  });
});

describe('generate on an AI SDK model', () => {
  it('an abort rejects promptly even when the model ignores its signal', async () => {
    const provider = fromAISDK(new MockLanguageModelV3({ modelId: 'mock-model-1', doGenerate: () => new Promise(() => undefined) }));
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 10);
    const error = await provider.generate(request, { signal: controller.signal }).catch((caught: unknown) => caught);
    expect(ProviderError.isInstance(error) && error.errorKind).toBe('aborted');
  });

  it("an abort of a model that ignores its signal says the caller's abort reason", async () => {
    const provider = fromAISDK(new MockLanguageModelV3({ modelId: 'mock-model-1', doGenerate: () => new Promise(() => undefined) }));
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('user left')), 10);
    const error = await provider.generate(request, { signal: controller.signal }).catch((caught: unknown) => caught);
    expect(ProviderError.isInstance(error) && [error.errorKind, error.message]).toEqual(['aborted', 'mock-provider: the request was aborted: user left']);
  });

  it('an already aborted signal makes no call', async () => {
    const model = new MockLanguageModelV3({ modelId: 'mock-model-1', doGenerate: textResult('x') });
    const controller = new AbortController();
    controller.abort();
    const error = await fromAISDK(model).generate(request, { signal: controller.signal }).catch((caught: unknown) => caught);
    expect(ProviderError.isInstance(error) && error.errorKind).toBe('aborted');
    expect(model.doGenerateCalls).toHaveLength(0);
  });

  it('a result with throwing getters or off-spec content is a retried bad-response', async () => {
    const hostile = new Proxy(textResult('x'), { get: (target, key) => (key === 'content' ? (() => { throw new Error('trap'); })() : Reflect.get(target, key)) });
    for (const result of [hostile, { ...textResult('x'), content: 'text' }, { ...textResult('x'), content: [{ type: 'text', text: 5 }] }, null]) {
      const provider = fromAISDK(new MockLanguageModelV3({ modelId: 'mock-model-1', doGenerate: async () => result as never }));
      const error = await provider.generate(request, {}).catch((caught: unknown) => caught);
      expect(ProviderError.isInstance(error) && [error.errorKind, error.retryable]).toEqual(['bad-response', true]);
    }
  });

  it('tool calls the provider ran itself, reasoning and sources are not Keel content', async () => {
    const result = {
      ...textResult('answer'),
      content: [
        { type: 'reasoning' as const, text: 'thinking' },
        { type: 'tool-call' as const, toolCallId: 'p1', toolName: 'web_search', input: '{}', providerExecuted: true },
        { type: 'source' as const, sourceType: 'url' as const, id: 's', url: 'https://example.com' },
        { type: 'text' as const, text: 'answer' },
      ],
    };
    const response = await fromAISDK(new MockLanguageModelV3({ modelId: 'mock-model-1', doGenerate: result })).generate(request, {});
    expect(response.content).toEqual([{ type: 'text', text: 'answer' }]);
    expect(response).toMatchObject({ text: 'answer', modelId: 'mock-model-1', responseId: 'resp-1' });
  });

  it('redacts the secrets it was given and the key the provider package reads from the environment', () => {
    const previous = process.env.GOOGLE_GENERATIVE_AI_API_KEY;
    process.env.GOOGLE_GENERATIVE_AI_API_KEY = 'AIza-environment-key-123';
    try {
      const provider = fromAISDK(new MockLanguageModelV3({ provider: 'google.generative-ai', modelId: 'g' }), { secrets: ['given-secret-456'] });
      expect(provider.redact?.('AIza-environment-key-123 and given-secret-456')).toBe('[redacted] and [redacted]');
    } finally {
      if (previous === undefined) delete process.env.GOOGLE_GENERATIVE_AI_API_KEY;
      else process.env.GOOGLE_GENERATIVE_AI_API_KEY = previous;
    }
  });

  it('capabilities: Gemini native output and strict tools; nothing claimed for others; the caller may declare', () => {
    expect(fromAISDK(new MockLanguageModelV3({ provider: 'google.generative-ai', modelId: 'g' })).capabilities?.('g')).toEqual({ nativeOutput: true, strictTools: true });
    expect(fromAISDK(new MockLanguageModelV3({ provider: 'anthropic.messages', modelId: 'c' })).capabilities?.('c')).toEqual({});
    expect(fromAISDK(new MockLanguageModelV3({ provider: 'openai.chat', modelId: 'o' }), { capabilities: { nativeOutput: true } }).capabilities?.('o')).toEqual({ nativeOutput: true });
  });
});
