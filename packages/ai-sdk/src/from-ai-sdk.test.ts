import { APICallError, InvalidPromptError, NoContentGeneratedError, type LanguageModelV3CallOptions } from '@ai-sdk/provider';
import { Agent, ReliabilityFailFastError } from '@keel/core';
import { convertArrayToReadableStream, MockLanguageModelV3, MockProviderV3 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { ProviderError } from '@keel/provider';
import { fromAISDK } from './from-ai-sdk';
import { specUsage, textResult, textStreamParts, toolCallResult } from './testing/mock-results';
import { Forecast, getWeather, recordingAgent } from './testing/weather-agent';
import { asComplete } from '@keel/core/test';

/** A mock model answering from a list, one result per call. */
function mockModel(...results: (ReturnType<typeof textResult> | Error)[]) {
  let index = 0;
  return new MockLanguageModelV3({
    provider: 'mock.chat',
    modelId: 'mock-model-1',
    doGenerate: async () => {
      const next = results[index++];
      if (next === undefined) throw new Error(`mock: no result for call ${index}`);
      if (next instanceof Error) throw next;
      return next;
    },
  });
}

const apiError = (statusCode: number, headers: Record<string, string> = {}, body = '{"error":{"message":"nope"}}') =>
  new APICallError({ message: `HTTP ${statusCode}`, url: 'http://127.0.0.1/v1', requestBodyValues: { secret: 'prompt' }, statusCode, responseHeaders: headers, responseBody: body });

const agentOn = (model: MockLanguageModelV3) => recordingAgent(fromAISDK(model), 'mock-model-1');

describe('fromAISDK on the AI SDK mock model', () => {
  it('runs an agent with a tool and an output schema: the tool call, its result sent back, the validated answer, usage with cache reads', async () => {
    const model = mockModel(toolCallResult('get_weather', '{"city":"Paris"}'), textResult('{"city":"Paris","celsius":18}', specUsage(300, 12, 200)));
    const result = asComplete(await agentOn(model).builder.tool(getWeather).outputSchema(Forecast).build().run('Weather in Paris?'));
    expect(result.value).toEqual({ city: 'Paris', celsius: 18 });
    expect(model.doGenerateCalls).toHaveLength(2);
    const second = model.doGenerateCalls[1] as LanguageModelV3CallOptions;
    expect(second.prompt.at(-2)).toEqual({ role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'call-1', toolName: 'get_weather', input: { city: 'Paris' } }] });
    expect(second.prompt.at(-1)).toEqual({ role: 'tool', content: [{ type: 'tool-result', toolCallId: 'call-1', toolName: 'get_weather', output: { type: 'text', value: '18' } }] });
    expect(second.tools).toEqual([{ type: 'function', name: 'get_weather', description: 'Current temperature of a city', inputSchema: expect.objectContaining({ type: 'object' }) }]);
    expect(second.toolChoice).toEqual({ type: 'auto' });
    // 100 + 10 uncached on the tool turn; 300 of which 200 cached on the answer.
    expect(result.usage).toMatchObject({ inputTokens: 200, cacheReadTokens: 200, outputTokens: 22, modelCalls: 2 });
  });

  it('a tool-argument re-ask forces the tool, with the feedback ephemeral', async () => {
    const model = mockModel(toolCallResult('get_weather', '{"city":""}'), toolCallResult('get_weather', '{"city":"Paris"}', 'call-2'), textResult('{"city":"Paris","celsius":18}'));
    const { builder, events } = agentOn(model);
    const result = asComplete(await builder.tool(getWeather).outputSchema(Forecast).build().run('Weather in Paris?'));
    expect(result.value).toEqual({ city: 'Paris', celsius: 18 });
    expect(model.doGenerateCalls[1]?.toolChoice).toEqual({ type: 'tool', toolName: 'get_weather' });
    expect(model.doGenerateCalls[2]?.toolChoice).toEqual({ type: 'auto' });
    expect(events.filter((event) => event.name === 'tool.re-ask')).toHaveLength(1);
    expect(result.toolCalls.map((call) => call.arguments)).toEqual([{ city: 'Paris' }]);
  });

  it('strict output recovers: an answer that fails the schema is re-asked and the second one is the value', async () => {
    const model = mockModel(textResult('{"city":"Paris","celsius":"eighteen"}'), textResult('{"city":"Paris","celsius":18}'));
    const result = asComplete(await agentOn(model).builder.outputSchema(Forecast).build().run('Weather in Paris?'));
    expect(result.value).toEqual({ city: 'Paris', celsius: 18 });
    expect(result.attempts.map((attempt) => attempt.errorKind)).toEqual(['schema-fail', 'ok']);
    const retry = model.doGenerateCalls[1]?.prompt ?? [];
    expect(retry.at(-1)?.role).toBe('user');
    expect(JSON.stringify(retry.at(-1))).toContain('celsius');
  });

  it('a 429 with Retry-After waits in the gate and retries there; the adapter calls the model once per attempt', async () => {
    const model = mockModel(apiError(429, { 'Retry-After': '0.02' }), textResult('{"city":"Paris","celsius":18}'));
    const { builder, events } = agentOn(model);
    const result = await builder.outputSchema(Forecast).build().run('Weather in Paris?');
    expect(result.attempts.map((attempt) => attempt.errorKind)).toEqual(['rate-limit', 'ok']);
    expect(events.filter((event) => event.name === 'reliability.retry').map((event) => event.payload.delayMs)).toEqual([20]);
    expect(model.doGenerateCalls).toHaveLength(2);
  });

  it('a 400 is a typed bad-request, never retried', async () => {
    const model = mockModel(apiError(400));
    const error = await agentOn(model).builder.build().run('hi').catch((caught: unknown) => caught);
    expect(ReliabilityFailFastError.isInstance(error) && error.errorKind).toBe('bad-request');
    expect(model.doGenerateCalls).toHaveLength(1);
  });

  it('no content generated is a bad-response, retried', async () => {
    const model = mockModel(new NoContentGeneratedError(), textResult('fine'));
    const result = await agentOn(model).builder.build().run('hi');
    expect(result.text).toBe('fine');
    expect(result.attempts.map((attempt) => attempt.errorKind)).toEqual(['bad-response', 'ok']);
  });

  it('an invalid prompt (the provider package refusing the request) is a bad-request', async () => {
    const provider = fromAISDK(mockModel(new InvalidPromptError({ prompt: [], message: 'system messages only first' })));
    const error = await provider.generate({ model: 'mock-model-1', messages: [{ role: 'user', content: 'hi' }] }, {}).catch((caught: unknown) => caught);
    expect(ProviderError.isInstance(error) && error.errorKind).toBe('bad-request');
  });

  it('streams text deltas and a finish part with the whole answer', async () => {
    const model = new MockLanguageModelV3({ modelId: 'mock-model-1', doStream: { stream: convertArrayToReadableStream(textStreamParts(['{"city":', '"Paris","celsius":18}'])) } });
    const agent = Agent.create({ provider: fromAISDK(model), model: 'mock-model-1' }).outputSchema(Forecast).build();
    const stream = agent.stream('Weather?');
    const result = asComplete(await stream.result);
    expect(result.value).toEqual({ city: 'Paris', celsius: 18 });
  });

  it('picks the model by the agent model id when given a provider', async () => {
    const gemini = mockModel(textResult('from gemini'));
    const other = mockModel(textResult('from other'));
    const provider = fromAISDK(new MockProviderV3({ languageModels: { 'gemini-x': gemini, other } }));
    const result = await Agent.create({ provider, model: 'other' }).build().run('hi');
    expect(result.text).toBe('from other');
    expect(gemini.doGenerateCalls).toHaveLength(0);
  });

  it('a call for a model id other than the wrapped model is refused, before any call', async () => {
    const model = mockModel(textResult('unused'));
    const error = await fromAISDK(model).generate({ model: 'gpt-typo', messages: [{ role: 'user', content: 'hi' }] }, {}).catch((caught: unknown) => caught);
    expect(ProviderError.isInstance(error) && error.errorKind).toBe('bad-request');
    expect(String((error as Error).message)).toContain('mock-model-1');
    expect(model.doGenerateCalls).toHaveLength(0);
  });

  it('refuses models of another spec version with what to install', () => {
    expect(() => fromAISDK({ specificationVersion: 'v2', doGenerate: () => undefined } as never)).toThrow(/spec v2.*AI SDK 6/);
    expect(() => fromAISDK({ specificationVersion: 'v4', doGenerate: () => undefined } as never)).toThrow(/spec v4.*spec v3/);
  });
});

describe('fromAISDK checks what it can at build()', () => {
  it('an agent whose model is not the wrapped model is refused by build(), before any call', () => {
    const model = mockModel(textResult('never'));
    const build = () => Agent.create({ provider: fromAISDK(model), model: 'mock-model-2' }).build();
    expect(build).toThrow(/\(model\): mock\.chat: this provider wraps the AI SDK model "mock-model-1"/);
    expect(model.doGenerateCalls).toHaveLength(0);
  });

  it('a model id the provider cannot make is refused by build()', () => {
    const provider = new MockProviderV3({ languageModels: { 'mock-model-1': mockModel(textResult('ok')) } });
    expect(() => Agent.create({ provider: fromAISDK(provider), model: 'mock-model-1' }).build()).not.toThrow();
    expect(() => Agent.create({ provider: fromAISDK(provider), model: 'no-such-model' }).build()).toThrow(/the AI SDK provider cannot make the model "no-such-model"/);
  });

  it('the context window comes from the options: one number, or one per model id', () => {
    expect(fromAISDK(mockModel(), { contextWindow: 1_048_576 }).capabilities?.('mock-model-1')).toEqual({ contextWindow: 1_048_576 });
    const perModel = fromAISDK(new MockProviderV3({ languageModels: { a: mockModel(), b: mockModel() } }), { contextWindow: (id) => (id === 'a' ? 200_000 : undefined) });
    expect([perModel.capabilities?.('a').contextWindow, perModel.capabilities?.('b').contextWindow]).toEqual([200_000, undefined]);
    expect(() => fromAISDK(mockModel(), { contextWindow: 0 })).toThrow(TypeError);
    expect(() => fromAISDK(mockModel(), { contextWindow: 1.5 })).toThrow(/whole number of tokens/);
  });
});
