import type { ModelRequest, ToolSpecification } from '@keel/provider';
import { describe, expect, it } from 'vitest';
import { anthropicModel } from '../testing/anthropic-model';
import { collectStream, responseOf } from '../testing/collect-stream';
import { matchesSchema } from '../testing/constrained-decoder';
import { orderSchema, transferSchema } from '../testing/fixtures/schemas';
import { afterToolCall, intendedOrder, nativeOutputFixture, providerFailure } from '../testing/native-output-fixture';
import { anthropicSchemaDefects } from '../testing/anthropic-schema-defects';
import { anthropicStrictProblem } from '../testing/validate-anthropic-request';
import { errorReply, wireServerPerTest } from '@keel/wire-server';
import { anthropic } from './anthropic-provider';
import { lowerAnthropicSchema } from './lower-schema';

type Json = Record<string, unknown>;

const server = wireServerPerTest();

const provider = () => anthropic({ baseURL: server().url, apiKey: 'test-key' });
const model = 'claude-sonnet-4-6';
const { nativeOrder, strictTransfer } = nativeOutputFixture(model, lowerAnthropicSchema);

describe('anthropic() native structured output', () => {
  it('sends output_config.format with every object closed and no keyword the decoder rejects; the answer parses and matches it', async () => {
    server().enqueue(anthropicModel({ type: 'answer', intent: intendedOrder }));
    const response = await provider().generate(nativeOrder, {});
    const body = server().requests[0]?.body as Json;
    const format = (body['output_config'] as Json)['format'] as Json;
    expect(format['type']).toBe('json_schema');
    expect(format['schema']).toEqual(nativeOrder.responseFormat?.schema);
    expect(anthropicSchemaDefects(format['schema'])).toEqual([]);
    expect(anthropicStrictProblem(body)).toBeUndefined();
    const value = JSON.parse(response.text) as unknown;
    expect(matchesSchema(value, format['schema'])).toBe(true);
    // Constrained decoding could not write the undeclared `loyalty`.
    expect(value).toEqual({ ...intendedOrder, customer: { name: 'Ada', email: 'ada@example.com' } });
    expect(matchesSchema(value, orderSchema)).toBe(true);
  });

  it('sends no output_config without strict, as before', async () => {
    server().enqueue(anthropicModel({ type: 'answer', intent: 'Paris.' }));
    await provider().generate({ ...nativeOrder, responseFormat: { type: 'json', schema: orderSchema } }, {});
    expect(server().requests[0]?.body).not.toHaveProperty('output_config');
  });

  it.each([false, true])('runs a strict tool turn then a final answer under the native format (streaming: %s)', async (streaming) => {
    const call = (request: ModelRequest) => responseOf(provider(), request, streaming);
    server().enqueue(
      // The model aims at a transfer with an undeclared `note` and no currency: the decoder cannot write the one and must write the other.
      anthropicModel({ type: 'tool-call', name: 'transfer', intent: { account: 42, amount: 10, note: 'rent' } }),
      anthropicModel({ type: 'answer', intent: intendedOrder }),
    );
    const first = await call({ ...nativeOrder, tools: [strictTransfer] });
    const firstBody = server().requests[0]?.body as Json;
    // Tools and the output format in one request: the format never stops tool calls.
    expect(firstBody).toMatchObject({ output_config: { format: { type: 'json_schema' } }, tools: [{ name: 'transfer', strict: true, input_schema: strictTransfer.inputSchema }] });
    expect(anthropicStrictProblem(firstBody)).toBeUndefined();
    expect(first.finishReason).toBe('tool-calls');
    const toolCall = first.content.find((part) => part.type === 'tool-call');
    expect(toolCall).toMatchObject({ name: 'transfer', arguments: { account: 42, amount: 10, currency: 'EUR' }, argumentsText: '{"account":42,"amount":10,"currency":"EUR"}' });
    expect(matchesSchema(JSON.parse(toolCall?.type === 'tool-call' ? (toolCall.argumentsText ?? '') : ''), strictTransfer.inputSchema)).toBe(true);

    const second = await call(afterToolCall({ ...nativeOrder, tools: [strictTransfer] }, first, 'done'));
    expect(server().requests[1]?.body).toMatchObject({ output_config: { format: { type: 'json_schema' } } });
    const secondBody = server().requests[1]?.body as Json | undefined;
    expect(secondBody?.['stream']).toBe(streaming ? true : undefined);
    expect(second.finishReason).toBe('stop');
    expect(matchesSchema(JSON.parse(second.text), nativeOrder.responseFormat?.schema)).toBe(true);
  });
});

describe('anthropic() schema rejections', () => {
  it('a full (unlowered) output schema is refused as the API refuses it, with schemaRejected output', async () => {
    server().enqueue(anthropicModel({ type: 'answer', intent: intendedOrder }));
    const error = await providerFailure(provider().generate({ ...nativeOrder, responseFormat: { type: 'json', schema: orderSchema, strict: true } }, {}));
    expect([error.errorKind, error.status, error.retryable, error.schemaRejected]).toEqual(['bad-request', 400, false, 'output']);
    expect(error.message).toMatch(/output_config\.format\.schema: For 'object' type, 'additionalProperties' must be explicitly set to false/);
  });

  it("a strict tool whose schema keeps a bound is refused as tool 0's, with schemaRejected tool (streaming too)", async () => {
    server().enqueue(anthropicModel({ type: 'answer', intent: 'x' }), anthropicModel({ type: 'answer', intent: 'x' }));
    const closed = { ...transferSchema, additionalProperties: false };
    const request: ModelRequest = { ...nativeOrder, tools: [{ ...strictTransfer, inputSchema: closed }] };
    const error = await providerFailure(provider().generate(request, {}));
    expect([error.errorKind, error.schemaRejected]).toEqual(['bad-request', 'tool']);
    expect(error.message).toMatch(/tools\.0\.custom: For 'integer' type, property 'minimum' is not supported/);
    const streamed = await providerFailure(collectStream(provider().stream!(request, {})));
    expect(streamed.schemaRejected).toBe('tool');
  });

  it("the grammar limits over all strict schemas name none: 'both' when the request sent both kinds, else the kind it sent", async () => {
    const wide = (count: number, prefix: string): Json => ({
      type: 'object',
      properties: Object.fromEntries(Array.from({ length: count }, (_, index) => [`${prefix}${index}`, { type: 'string' }])),
      required: [],
      additionalProperties: false,
    });
    const tool: ToolSpecification = { name: 'search', description: 'Search.', inputSchema: wide(13, 't'), strict: true };
    server().enqueue(anthropicModel({ type: 'answer', intent: {} }), anthropicModel({ type: 'answer', intent: {} }));
    const together = await providerFailure(provider().generate({ ...nativeOrder, responseFormat: { type: 'json', schema: wide(13, 'o'), strict: true }, tools: [tool] }, {}));
    expect(together.schemaRejected).toBe('both');
    expect(together.message).toMatch(/Schemas contains too many optional parameters \(26\)/);
    const toolsOnly = await providerFailure(provider().generate({ model, messages: nativeOrder.messages, tools: [tool, { ...tool, name: 'find' }] }, {}));
    expect(toolsOnly.schemaRejected).toBe('tool');
  });

  it('other 400s stay plain bad requests, also a schema error for a tool that was not strict', async () => {
    server().enqueue(
      errorReply(400, { type: 'error', error: { type: 'invalid_request_error', message: 'messages.0.content: Input should be a valid list' } }),
      errorReply(400, { type: 'error', error: { type: 'invalid_request_error', message: 'tools.0.custom.input_schema: JSON schema is invalid. It must match JSON Schema draft 2020-12.' } }),
      errorReply(400, { type: 'error', error: { type: 'invalid_request_error', message: 'output_config.format.schema: For \'object\' type, \'additionalProperties\' must be explicitly set to false' } }),
    );
    const plain = await providerFailure(provider().generate(nativeOrder, {}));
    expect([plain.errorKind, plain.schemaRejected]).toEqual(['bad-request', undefined]);
    const looseTool = await providerFailure(provider().generate({ ...nativeOrder, tools: [{ ...strictTransfer, strict: false }] }, {}));
    expect(looseTool.schemaRejected).toBeUndefined();
    // A message about output_config on a request that sent no native format is not ours to downgrade.
    const notSent = await providerFailure(provider().generate({ model, messages: nativeOrder.messages }, {}));
    expect(notSent.schemaRejected).toBeUndefined();
  });
});
