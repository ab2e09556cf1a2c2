import type { ModelRequest } from '@keel/provider';
import { describe, expect, it } from 'vitest';
import { collectStream, responseOf } from '../testing/collect-stream';
import { matchesSchema } from '../testing/constrained-decoder';
import { orderSchema, transferSchema } from '../testing/fixtures/schemas';
import { afterToolCall, intendedOrder, nativeOutputFixture, providerFailure } from '../testing/native-output-fixture';
import { openAIModel } from '../testing/openai-model';
import { openAIStrictProblem } from '../testing/validate-openai-request';
import { errorReply, wireServerPerTest } from '@keel/wire-server';
import { lowerOpenAISchema } from './lower-schema';
import { openai } from './openai-provider';

type Json = Record<string, unknown>;

const server = wireServerPerTest();

const provider = () => openai({ baseURL: server().url, apiKey: 'test-key' });
const model = 'gpt-4.1-mini';
const { nativeOrder, strictTransfer } = nativeOutputFixture(model, lowerOpenAISchema);

/** Objects of a schema sent on the wire that are open or leave a property out of `required`. */
function wireSchemaDefects(schema: unknown): string[] {
  const defects: string[] = [];
  const visit = (node: unknown, path: string): void => {
    if (typeof node !== 'object' || node === null) return;
    if (Array.isArray(node)) return node.forEach((child, index) => visit(child, `${path}/${index}`));
    const record = node as Json;
    if (typeof record['properties'] === 'object' && record['properties'] !== null) {
      if (record['additionalProperties'] !== false) defects.push(`open object at ${path}`);
      const required = Array.isArray(record['required']) ? record['required'] : [];
      for (const name of Object.keys(record['properties'])) if (!required.includes(name)) defects.push(`${name} not required at ${path}`);
    }
    for (const [key, child] of Object.entries(record)) if (key !== 'enum' && key !== 'const' && key !== 'required') visit(child, `${path}/${key}`);
  };
  visit(schema, '');
  return defects;
}

/** A value with every null property left out: how core reads the model's null for an optional property. */
function withoutNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutNulls);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(Object.entries(value).filter(([, child]) => child !== null).map(([key, child]) => [key, withoutNulls(child)]));
}

describe('openai() native structured output', () => {
  it('sends a strict json_schema response format with every property required and every object closed; the answer parses and matches it', async () => {
    server().enqueue(openAIModel({ type: 'answer', intent: intendedOrder }));
    const response = await provider().generate(nativeOrder, {});
    const body = server().requests[0]?.body as Json;
    expect(body['response_format']).toEqual({ type: 'json_schema', json_schema: { name: 'order', schema: nativeOrder.responseFormat?.schema, strict: true } });
    expect(wireSchemaDefects(nativeOrder.responseFormat?.schema)).toEqual([]);
    expect(openAIStrictProblem(body)).toBeUndefined();
    const value = JSON.parse(response.text) as Json;
    expect(matchesSchema(value, nativeOrder.responseFormat?.schema)).toBe(true);
    // The optional properties the model left out come back as null; read as absent, the value fits the full schema.
    expect(value['placedAt']).toBeNull();
    expect((value['customer'] as Json)['vip']).toBeNull();
    expect(withoutNulls(value)).toEqual({ ...intendedOrder, customer: { name: 'Ada', email: 'ada@example.com' } });
    expect(matchesSchema(withoutNulls(value), orderSchema)).toBe(true);
  });

  it.each([false, true])('runs a strict tool turn then a final answer under the native format (streaming: %s)', async (streaming) => {
    const call = (request: ModelRequest) => responseOf(provider(), request, streaming);
    server().enqueue(
      openAIModel({ type: 'tool-call', name: 'transfer', intent: { account: 42, amount: 25_000, currency: 'EUR' } }),
      openAIModel({ type: 'answer', intent: intendedOrder }),
    );
    const first = await call({ ...nativeOrder, tools: [strictTransfer, { name: 'lookup', description: 'Look up.', inputSchema: { type: 'object', properties: { q: { type: 'string' } } } }] });
    const firstBody = server().requests[0]?.body as Json;
    // Tools and the response format in one request; only the strict tool is strict.
    expect(firstBody).toMatchObject({
      response_format: { type: 'json_schema', json_schema: { strict: true } },
      tools: [{ type: 'function', function: { name: 'transfer', strict: true, parameters: strictTransfer.inputSchema } }, { type: 'function', function: { name: 'lookup' } }],
    });
    const lookup = (firstBody['tools'] as Json[])[1]?.['function'] as Json | undefined;
    expect(lookup).toBeDefined();
    expect(lookup?.['strict']).toBeUndefined();
    expect(openAIStrictProblem(firstBody)).toBeUndefined();
    expect(first.finishReason).toBe('tool-calls');
    const toolCall = first.content.find((part) => part.type === 'tool-call');
    // The decoder clamps the amount to the schema's maximum and writes null for the optional memo.
    expect(toolCall).toMatchObject({ name: 'transfer', arguments: { account: 42, amount: 10_000, currency: 'EUR', memo: null }, argumentsText: '{"account":42,"amount":10000,"currency":"EUR","memo":null}' });

    const second = await call(afterToolCall({ ...nativeOrder, tools: [strictTransfer] }, first, 'done'));
    expect(server().requests[1]?.body).toMatchObject({ response_format: { json_schema: { strict: true } } });
    expect(second.finishReason).toBe('stop');
    expect(matchesSchema(JSON.parse(second.text), nativeOrder.responseFormat?.schema)).toBe(true);
  });
});

describe('openai() schema rejections', () => {
  it('a full (unlowered) output schema is refused as the API refuses it, with schemaRejected output', async () => {
    server().enqueue(openAIModel({ type: 'answer', intent: intendedOrder }));
    const error = await providerFailure(provider().generate({ ...nativeOrder, responseFormat: { type: 'json', name: 'order', schema: orderSchema, strict: true } }, {}));
    expect([error.errorKind, error.status, error.retryable, error.schemaRejected]).toEqual(['bad-request', 400, false, 'output']);
    expect(error.message).toMatch(/Invalid schema for response_format 'order': In context=\(\), /);
  });

  it('a strict function whose schema leaves a property optional is refused as that tool, with schemaRejected tool (streaming too)', async () => {
    server().enqueue(openAIModel({ type: 'answer', intent: 'x' }), openAIModel({ type: 'answer', intent: 'x' }));
    const request: ModelRequest = { model, messages: nativeOrder.messages, tools: [{ ...strictTransfer, inputSchema: { ...transferSchema, additionalProperties: false } }] };
    const error = await providerFailure(provider().generate(request, {}));
    expect([error.errorKind, error.schemaRejected]).toEqual(['bad-request', 'tool']);
    expect(error.message).toMatch(/Invalid schema for function 'transfer': In context=\(\), 'required' is required to be supplied and to be an array including every key in properties\. Missing 'memo'\./);
    const streamed = await providerFailure(collectStream(provider().stream!(request, {})));
    expect(streamed.schemaRejected).toBe('tool');
  });

  it("a model without json_schema support answers for response_format: that is the output's rejection", async () => {
    server().enqueue(errorReply(400, { error: { message: "Invalid parameter: 'response_format' of type 'json_schema' is not supported with this model.", type: 'invalid_request_error', param: 'response_format', code: null } }));
    expect((await providerFailure(provider().generate(nativeOrder, {}))).schemaRejected).toBe('output');
  });

  it('other 400s stay plain bad requests, also a schema error for a function that was not strict', async () => {
    server().enqueue(
      errorReply(400, { error: { message: "Invalid 'messages[0].content': string too long.", type: 'invalid_request_error', param: 'messages[0].content', code: 'string_above_max_length' } }),
      errorReply(400, { error: { message: "Invalid schema for function 'lookup': schema must be a JSON Schema of 'type: \"object\"', got 'type: \"array\"'.", type: 'invalid_request_error', param: 'tools[0].function.parameters', code: 'invalid_function_parameters' } }),
    );
    const plain = await providerFailure(provider().generate(nativeOrder, {}));
    expect([plain.errorKind, plain.schemaRejected]).toEqual(['bad-request', undefined]);
    const loose = await providerFailure(provider().generate({ model, messages: nativeOrder.messages, tools: [{ name: 'lookup', description: '', inputSchema: { type: 'array' } }] }, {}));
    expect(loose.schemaRejected).toBeUndefined();
  });
});
