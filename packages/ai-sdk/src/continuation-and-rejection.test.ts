import { createAnthropic } from '@ai-sdk/anthropic';
import { createGoogleGenerativeAI } from '@ai-sdk/google';
import { MockLanguageModelV3 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { CONTINUE_INSTRUCTION, type ProviderError } from '@keel/provider';
import { fromAISDK } from './from-ai-sdk';
import { anthropicText } from './testing/anthropic-fixtures';
import { geminiError, geminiText } from './testing/gemini-fixtures';
import { textResult } from './testing/mock-results';
import { errorReply, jsonReply, wireServersPerTest } from '@keel/wire-server';

const server = wireServersPerTest();

const cut = '{"items": [{"sku": "A-1", "qty": 2}, {"sku": "A-';

describe('continuing a cut answer (continueFrom)', () => {
  it('a model without prefill gets the cut text, then the instruction to continue', async () => {
    const model = new MockLanguageModelV3({ provider: 'mistral.chat', modelId: 'm', doGenerate: textResult('2", "qty": 1}]}') });
    await fromAISDK(model).generate({ model: 'm', messages: [{ role: 'user', content: 'List the items.' }], continueFrom: `${cut}  ` }, {});
    expect(model.doGenerateCalls[0]?.prompt.slice(1)).toEqual([
      { role: 'assistant', content: [{ type: 'text', text: cut }] },
      { role: 'user', content: [{ type: 'text', text: CONTINUE_INSTRUCTION }] },
    ]);
  });

  it('Claude continues a trailing assistant message (prefill), with no cache breakpoint on it', async () => {
    const wire = await server(jsonReply(anthropicText('2", "qty": 1})}')));
    const provider = fromAISDK(createAnthropic({ baseURL: wire.url, apiKey: 'k' })('claude-sonnet-4-5'), { cache: true });
    await provider.generate({ model: 'claude-sonnet-4-5', messages: [{ role: 'user', content: 'List the items.' }], continueFrom: cut }, {});
    const body = wire.requests[0]?.body as { messages: { role: string; content: { text?: string; cache_control?: unknown }[] }[] } | undefined;
    const messages = body?.messages ?? [];
    expect(messages.map((message) => message.role)).toEqual(['user', 'assistant']);
    expect(messages[1]?.content).toEqual([{ type: 'text', text: cut }]);
    expect(messages[0]?.content.at(-1)?.cache_control).toEqual({ type: 'ephemeral' });
  });
});

describe('a 400 that refuses a strict schema', () => {
  const output = { type: 'json' as const, schema: { type: 'object', properties: { n: { type: 'number' } } }, strict: true };
  const strictTool = { name: 'add', description: 'Adds', inputSchema: { type: 'object', properties: { a: { type: 'number' } } }, strict: true };
  const call = async (reply: ReturnType<typeof jsonReply>, request: Record<string, unknown>, model = 'gemini-3-pro-preview') => {
    const wire = await server(reply);
    const provider = fromAISDK(createGoogleGenerativeAI({ baseURL: wire.url, apiKey: 'k' }));
    return provider.generate({ model, messages: [{ role: 'user', content: 'hi' }], ...request }, {}).then(() => undefined, (error: unknown) => error as ProviderError);
  };

  it("says which one, from Gemini's message", async () => {
    const aboutSchema = geminiError(400, 'INVALID_ARGUMENT', "Invalid JSON payload received. Unknown name \"patternProperties\" at 'generation_config.response_schema': Cannot find field.");
    expect((await call(errorReply(400, aboutSchema), { responseFormat: output }))?.schemaRejected).toBe('output');
    const aboutTool = geminiError(400, 'INVALID_ARGUMENT', "* GenerateContentRequest.tools[0].function_declarations[0].parameters.properties[a].type: must be specified");
    expect((await call(errorReply(400, aboutTool), { tools: [strictTool] }))?.schemaRejected).toBe('tool');
    const mimeWithTools = geminiError(400, 'INVALID_ARGUMENT', "Function calling with a response mime type: 'application/json' is unsupported");
    expect((await call(errorReply(400, mimeWithTools), { tools: [strictTool], responseFormat: output }))?.schemaRejected).toBe('output');
  });

  it('nothing when no strict schema was sent, or the 400 is about something else', async () => {
    const aboutSchema = geminiError(400, 'INVALID_ARGUMENT', "Unknown name \"x\" at 'generation_config.response_schema'");
    expect((await call(errorReply(400, aboutSchema), { responseFormat: { ...output, strict: false } }))?.schemaRejected).toBeUndefined();
    const other = geminiError(400, 'INVALID_ARGUMENT', 'Request contains an invalid argument: contents is empty');
    const error = await call(errorReply(400, other), { responseFormat: output });
    expect([error?.errorKind, error?.schemaRejected]).toEqual(['bad-request', undefined]);
  });

  it("the provider package refusing the schema before sending (a mixed enum) is a schema rejection too", async () => {
    const wire = await server(jsonReply(geminiText('{}')));
    const provider = fromAISDK(createGoogleGenerativeAI({ baseURL: wire.url, apiKey: 'k' }));
    const error = await provider
      .generate({ model: 'gemini-2.5-flash', messages: [{ role: 'user', content: 'hi' }], responseFormat: { type: 'json', schema: { type: 'object', properties: { a: { enum: ['x', 1] } } }, strict: true } }, {})
      .then(() => undefined, (caught: unknown) => caught as ProviderError);
    expect([error?.errorKind, error?.schemaRejected]).toEqual(['bad-request', 'output']);
    expect(wire.requests).toHaveLength(0);
  });
});
