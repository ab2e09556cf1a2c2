import { createGoogleGenerativeAI } from '@ai-sdk/google';
import { ReliabilityFailFastError } from '@keel/core';
import { type ModelStreamPart, ProviderError } from '@keel/provider';
import { describe, expect, it } from 'vitest';
import { fromAISDK } from './from-ai-sdk';
import { geminiError, geminiFunctionCall, geminiReply, geminiText, geminiTextChunks, geminiUsage } from './testing/gemini-fixtures';
import { errorReply, hangReply, jsonReply, rawJsonReply, sseReply, type WireReply, type WireServer, wireServersPerTest } from '@keel/wire-server';
import { dataEvents } from './testing/data-events';
import { Forecast, getWeather, recordingAgent } from './testing/weather-agent';
import { asComplete } from '@keel/core/test';

/**
 * Gemini through `@ai-sdk/google` (the real provider package) against a local server speaking
 * the Gemini API: `generateContent` (JSON) and `streamGenerateContent?alt=sse` (SSE).
 */

const API_KEY = 'gemini-test-key-0123456789';
const startServer = wireServersPerTest();

async function gemini(...replies: WireReply[]) {
  const wire = await startServer(...replies);
  const google = createGoogleGenerativeAI({ baseURL: wire.url, apiKey: API_KEY });
  return { wire, google, provider: fromAISDK(google('gemini-2.5-flash'), { secrets: [API_KEY] }) };
}

type Body = {
  contents: { role: string; parts: Record<string, unknown>[] }[];
  systemInstruction?: { parts: { text: string }[] };
  tools?: { functionDeclarations: { name: string }[] }[];
  toolConfig?: { functionCallingConfig: Record<string, unknown> };
  generationConfig?: Record<string, unknown>;
};
const bodyOf = (wire: WireServer, index: number) => wire.requests[index]?.body as Body;

function agentOn(provider: ReturnType<typeof fromAISDK>) {
  const agent = recordingAgent(provider, 'gemini-2.5-flash');
  return { ...agent, builder: agent.builder.system('You report the weather.') };
}

describe('Gemini via @ai-sdk/google, generateContent', () => {
  it('an agent with a tool and an output schema: the call, the result sent back, the answer, usage with cache reads', async () => {
    const { wire, provider } = await gemini(jsonReply(geminiFunctionCall('get_weather', { city: 'Paris' })), jsonReply(geminiText('{"city":"Paris","celsius":18}', geminiUsage(2400, 12, 2048))));
    const result = asComplete(await agentOn(provider).builder.tool(getWeather).outputSchema(Forecast).build().run('Weather in Paris?'));
    expect(result.value).toEqual({ city: 'Paris', celsius: 18 });
    expect(wire.requests.map((request) => request.path)).toEqual(['/models/gemini-2.5-flash:generateContent', '/models/gemini-2.5-flash:generateContent']);
    expect(wire.requests[0]?.headers['x-goog-api-key']).toBe(API_KEY);
    const first = bodyOf(wire, 0);
    expect(first.systemInstruction).toEqual({ parts: [{ text: 'You report the weather.' }] });
    expect(first.contents).toEqual([{ role: 'user', parts: [{ text: 'Weather in Paris?' }] }]);
    expect(first.tools?.[0]?.functionDeclarations.map((declaration) => declaration.name)).toEqual(['get_weather']);
    const second = bodyOf(wire, 1);
    expect(second.contents.slice(1)).toMatchObject([
      { role: 'model', parts: [{ functionCall: { name: 'get_weather', args: { city: 'Paris' } } }] },
      { role: 'user', parts: [{ functionResponse: { name: 'get_weather', response: { name: 'get_weather', content: '18' } } }] },
    ]);
    // Tool turn 120 in, 14 out; the answer 2400 in of which 2048 from Gemini's cache.
    expect(result.usage).toMatchObject({ inputTokens: 120 + 352, cacheReadTokens: 2048, outputTokens: 26, modelCalls: 2 });
  });

  it('a tool-argument re-ask forces the tool on the wire (mode ANY, that function only)', async () => {
    const { wire, provider } = await gemini(
      jsonReply(geminiFunctionCall('get_weather', { city: '' })),
      jsonReply(geminiFunctionCall('get_weather', { city: 'Paris' })),
      jsonReply(geminiText('{"city":"Paris","celsius":18}')),
    );
    const { builder, events } = agentOn(provider);
    const result = asComplete(await builder.tool(getWeather).outputSchema(Forecast).build().run('Weather in Paris?'));
    expect(result.value).toEqual({ city: 'Paris', celsius: 18 });
    // AUTO, or VALIDATED when core asks for strict tools (Gemini's capability): the model chooses.
    const chooses = ['AUTO', 'VALIDATED'];
    expect(chooses).toContain(bodyOf(wire, 0).toolConfig?.functionCallingConfig.mode);
    expect(bodyOf(wire, 1).toolConfig?.functionCallingConfig).toEqual({ mode: 'ANY', allowedFunctionNames: ['get_weather'] });
    expect(chooses).toContain(bodyOf(wire, 2).toolConfig?.functionCallingConfig.mode);
    expect(events.filter((event) => event.name === 'tool.re-ask')).toHaveLength(1);
    // The rejected call and its feedback were ephemeral: the kept conversation has only the good call.
    expect(JSON.stringify(bodyOf(wire, 2).contents)).not.toContain('"city":""');
  });

  it('strict output recovers: a reply that fails the schema is re-asked, with the feedback only in that request', async () => {
    const { wire, provider } = await gemini(jsonReply(geminiText('{"city":"Paris","celsius":"18 degrees"}')), jsonReply(geminiText('{"city":"Paris","celsius":18}')));
    const result = asComplete(await agentOn(provider).builder.outputSchema(Forecast).build().run('Weather in Paris?'));
    expect(result.value).toEqual({ city: 'Paris', celsius: 18 });
    expect(result.attempts.map((attempt) => attempt.errorKind)).toEqual(['schema-fail', 'ok']);
    const retry = bodyOf(wire, 1).contents;
    expect(retry.map((content) => content.role)).toEqual(['user', 'model', 'user']);
    expect(JSON.stringify(retry[2])).toContain('celsius');
  });

  it('native structured output: responseFormat becomes responseMimeType and responseSchema', async () => {
    const { wire, provider } = await gemini(jsonReply(geminiText('{"city":"Paris","celsius":18}')));
    expect(provider.capabilities?.('gemini-2.5-flash')).toEqual({ nativeOutput: true, strictTools: true });
    const schema = { type: 'object', properties: { city: { type: 'string' }, celsius: { type: 'number' } }, required: ['city', 'celsius'], additionalProperties: false };
    const response = await provider.generate({ model: 'gemini-2.5-flash', messages: [{ role: 'user', content: 'Paris?' }], responseFormat: { type: 'json', schema, name: 'forecast' } }, {});
    expect(response.text).toBe('{"city":"Paris","celsius":18}');
    expect(bodyOf(wire, 0).generationConfig).toMatchObject({ responseMimeType: 'application/json', responseSchema: { type: 'object', properties: { city: { type: 'string' }, celsius: { type: 'number' } }, required: ['city', 'celsius'] } });
  });

  it('Gemini before 3 gets no JSON format beside function declarations (it would answer 400); Gemini 3 gets both', async () => {
    const { wire, google } = await gemini(jsonReply(geminiText('{}')), jsonReply(geminiText('{}')), jsonReply(geminiText('{}')));
    const request = {
      messages: [{ role: 'user' as const, content: 'Paris?' }],
      tools: [{ name: 'get_weather', description: 'Weather', inputSchema: { type: 'object', properties: { city: { type: 'string' } } } }],
      responseFormat: { type: 'json' as const, schema: { type: 'object', properties: { celsius: { type: 'number' } } }, strict: true },
    };
    await fromAISDK(google).generate({ ...request, model: 'gemini-2.5-flash' }, {});
    await fromAISDK(google).generate({ ...request, model: 'gemini-3-pro-preview' }, {});
    const { tools: _tools, ...withoutTools } = request;
    await fromAISDK(google).generate({ ...withoutTools, model: 'gemini-2.5-flash' }, {});
    const configs = wire.requests.map((sent) => (sent.body as Body).generationConfig ?? {});
    expect(configs[0]?.responseSchema).toBeUndefined();
    expect(configs[0]?.responseMimeType).toBeUndefined();
    expect(configs[1]).toMatchObject({ responseMimeType: 'application/json', responseSchema: { type: 'object' } });
    expect(configs[2]).toMatchObject({ responseMimeType: 'application/json', responseSchema: { type: 'object' } });
  });
});

describe('Gemini via @ai-sdk/google, generateContent', () => {
  it('a 429 with Retry-After waits in the gate, then succeeds; one request per attempt', async () => {
    const { wire, provider } = await gemini(errorReply(429, geminiError(429, 'RESOURCE_EXHAUSTED', 'Resource has been exhausted'), { 'retry-after': '0.03' }), jsonReply(geminiText('{"city":"Paris","celsius":18}')));
    const { builder, events } = agentOn(provider);
    const result = asComplete(await builder.outputSchema(Forecast).build().run('Weather in Paris?'));
    expect(result.value).toEqual({ city: 'Paris', celsius: 18 });
    expect(wire.requests).toHaveLength(2);
    expect(result.attempts.map((attempt) => attempt.errorKind)).toEqual(['rate-limit', 'ok']);
    expect(events.filter((event) => event.name === 'reliability.retry').map((event) => event.payload.delayMs)).toEqual([30]);
  });

  it("a 429 without the header: the delay of Gemini's RetryInfo in the body", async () => {
    const retryInfo = [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '0.04s' }];
    const { provider } = await gemini(errorReply(429, geminiError(429, 'RESOURCE_EXHAUSTED', 'Quota exceeded', retryInfo)));
    const error = await provider.generate({ model: 'gemini-2.5-flash', messages: [{ role: 'user', content: 'hi' }] }, {}).catch((caught: unknown) => caught);
    expect(ProviderError.isInstance(error) && { kind: error.errorKind, status: error.status, retryAfterMs: error.retryAfterMs, retryable: error.retryable }).toEqual({ kind: 'rate-limit', status: 429, retryAfterMs: 40, retryable: true });
  });

  it('a 400 is a typed bad-request: one request, no retry, the key never in the error', async () => {
    const { wire, provider } = await gemini(errorReply(400, geminiError(400, 'INVALID_ARGUMENT', `API key not valid: ${API_KEY}`)));
    const error = await agentOn(provider).builder.build().run('hi').catch((caught: unknown) => caught);
    expect(ReliabilityFailFastError.isInstance(error) && error.errorKind).toBe('bad-request');
    expect(wire.requests).toHaveLength(1);
    const direct = await (await gemini(errorReply(400, geminiError(400, 'INVALID_ARGUMENT', `API key not valid: ${API_KEY}`)))).provider
      .generate({ model: 'gemini-2.5-flash', messages: [{ role: 'user', content: 'hi' }] }, {})
      .catch((caught: unknown) => caught);
    expect(ProviderError.isInstance(direct) && direct.errorKind).toBe('bad-request');
    expect(JSON.stringify({ message: (direct as Error).message, cause: (direct as Error).cause })).not.toContain(API_KEY);
    expect((direct as Error).message).toContain('[redacted]');
  });

  it('a 503 is retried as overload or server error, a 401 is auth', async () => {
    const { provider } = await gemini(errorReply(503, geminiError(503, 'UNAVAILABLE', 'The model is overloaded')), errorReply(401, geminiError(401, 'UNAUTHENTICATED', 'no')));
    const call = () => provider.generate({ model: 'gemini-2.5-flash', messages: [{ role: 'user', content: 'hi' }] }, {}).then(() => undefined, (caught: unknown) => caught as ProviderError);
    expect((await call())?.errorKind).toBe('server-error');
    expect((await call())?.errorKind).toBe('auth');
  });

  it('a 200 whose body is not JSON is a retried bad-response', async () => {
    const { provider } = await gemini(rawJsonReply('<html>proxy error</html>'));
    const error = await provider.generate({ model: 'gemini-2.5-flash', messages: [{ role: 'user', content: 'hi' }] }, {}).catch((caught: unknown) => caught);
    expect(ProviderError.isInstance(error) && [error.errorKind, error.retryable]).toEqual(['bad-response', true]);
  });

  it("sends Gemini's thought signature back with the function call it came with", async () => {
    const { wire, provider } = await gemini(jsonReply(geminiFunctionCall('get_weather', { city: 'Paris' }, { thoughtSignature: 'c2lnbmF0dXJlLTE=' })), jsonReply(geminiText('{"city":"Paris","celsius":18}')));
    await agentOn(provider).builder.tool(getWeather).outputSchema(Forecast).build().run('Weather in Paris?');
    expect(bodyOf(wire, 1).contents[1]).toMatchObject({ role: 'model', parts: [{ functionCall: { name: 'get_weather', args: { city: 'Paris' } }, thoughtSignature: 'c2lnbmF0dXJlLTE=' }] });
  });

  it('length is kept distinct from stop', async () => {
    const { provider } = await gemini(jsonReply(geminiReply([{ text: '{"city":"Pa' }], { finishReason: 'MAX_TOKENS' })));
    const response = await provider.generate({ model: 'gemini-2.5-flash', messages: [{ role: 'user', content: 'hi' }] }, {});
    expect(response.finishReason).toBe('length');
  });

  it('an abort reaches the request: a hanging server does not hold the call', async () => {
    const { provider } = await gemini(hangReply());
    const controller = new AbortController();
    const pending = provider.generate({ model: 'gemini-2.5-flash', messages: [{ role: 'user', content: 'hi' }] }, { signal: controller.signal }).catch((caught: unknown) => caught);
    setTimeout(() => controller.abort(), 20);
    const error = await pending;
    expect(ProviderError.isInstance(error) && error.errorKind).toBe('aborted');
  });
});

describe('Gemini via @ai-sdk/google, streamGenerateContent (SSE)', () => {
  const collect = async (stream: AsyncIterable<ModelStreamPart> | undefined) => {
    const parts: ModelStreamPart[] = [];
    for await (const part of stream ?? []) parts.push(part);
    return parts;
  };

  it('text deltas, then finish with the whole answer and usage', async () => {
    const { wire, provider } = await gemini(sseReply(dataEvents(geminiTextChunks(['{"city":"Paris",', '"celsius":18}'], geminiUsage(900, 9, 512)))));
    const parts = await collect(provider.stream?.({ model: 'gemini-2.5-flash', messages: [{ role: 'user', content: 'Paris?' }] }, {}));
    expect(wire.requests[0]?.path).toBe('/models/gemini-2.5-flash:streamGenerateContent?alt=sse');
    expect(parts.filter((part) => part.type === 'text-delta').map((part) => part.text)).toEqual(['{"city":"Paris",', '"celsius":18}']);
    const finish = parts.at(-1);
    expect(finish?.type === 'finish' && finish.response).toMatchObject({ text: '{"city":"Paris","celsius":18}', finishReason: 'stop', usage: { inputTokens: 388, cacheReadTokens: 512, outputTokens: 9 } });
  });

  it('a function call streams as start, arguments and the call with its raw text', async () => {
    const chunk = { candidates: [{ content: { role: 'model', parts: [{ functionCall: { name: 'get_weather', args: { city: 'Paris' } } }] }, finishReason: 'STOP', index: 0 }], usageMetadata: geminiUsage(100, 5) };
    const { provider } = await gemini(sseReply(dataEvents([chunk])));
    const parts = await collect(provider.stream?.({ model: 'gemini-2.5-flash', messages: [{ role: 'user', content: 'Paris?' }], tools: [{ name: 'get_weather', description: 'Weather', inputSchema: { type: 'object', properties: { city: { type: 'string' } } } }] }, {}));
    expect(parts.map((part) => part.type)).toEqual(['tool-call-start', 'tool-call-delta', 'tool-call', 'finish']);
    const call = parts.find((part) => part.type === 'tool-call');
    expect(call?.type === 'tool-call' && call.call).toMatchObject({ name: 'get_weather', arguments: { city: 'Paris' }, argumentsText: '{"city":"Paris"}' });
    const finish = parts.at(-1);
    expect(finish?.type === 'finish' && finish.response.finishReason).toBe('tool-calls');
  });

  it('a stream that ends cleanly but early (no finish reason, no usage) is a network error, not a short answer', async () => {
    const { provider } = await gemini(sseReply(dataEvents(geminiTextChunks(['{"city":"Paris",', '"celsius":18}']).slice(0, 1)), { ending: 'end' }));
    const error = await collect(provider.stream?.({ model: 'gemini-2.5-flash', messages: [{ role: 'user', content: 'Paris?' }] }, {})).catch((caught: unknown) => caught);
    expect(ProviderError.isInstance(error) && error.errorKind).toBe('network');
  });

  it('a stream cut mid-way is a network error, and the agent retries it in the gate', async () => {
    const cutReply = () => sseReply(dataEvents(geminiTextChunks(['{"city":"Paris",', '"celsius":18}']).slice(0, 1)), { ending: 'destroy' });
    const { wire, provider } = await gemini(cutReply());
    const cut = await collect(provider.stream?.({ model: 'gemini-2.5-flash', messages: [{ role: 'user', content: 'Paris?' }] }, {})).catch((caught: unknown) => caught);
    expect(ProviderError.isInstance(cut) && cut.errorKind).toBe('network');
    wire.enqueue(cutReply(), sseReply(dataEvents(geminiTextChunks(['{"city":"Paris",', '"celsius":18}']))));
    const agent = agentOn(provider).builder.outputSchema(Forecast).build();
    const result = asComplete(await agent.stream('Weather in Paris?').result);
    expect(result.value).toEqual({ city: 'Paris', celsius: 18 });
    expect(result.attempts.map((attempt) => attempt.errorKind)).toEqual(['network', 'ok']);
    expect(wire.requests).toHaveLength(3);
  });
});
