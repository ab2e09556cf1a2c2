// The SDKs load on a provider's first use; loading them here keeps that out of the timed tests.
import '@anthropic-ai/sdk';
import 'openai';
import { Agent, type AgentEvents, type AgentStreamPart, tool } from '@keel/core';
import { type ModelProvider } from '@keel/provider';
import { Type } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import { anthropic } from './anthropic/anthropic-provider';
import { openai } from './openai/openai-provider';
import { anthropicModel } from './testing/anthropic-model';
import { anthropicSchemaDefects } from './testing/anthropic-schema-defects';
import { openAIModel } from './testing/openai-model';
import { anthropicRequestIssues } from './testing/validate-anthropic-request';
import { openAIRequestIssues } from './testing/validate-openai-request';
import { type WireServer, wireServersPerTest } from '@keel/wire-server';
import { asComplete } from '@keel/core/test';

/**
 * Output modes end to end: agents on the real SDKs against the local Messages API and Chat
 * Completions servers, which refuse what the real APIs refuse (with their 400 bodies) and simulate
 * constrained decoding of what the request sent.
 */

const server = wireServersPerTest();

type Json = Record<string, unknown>;

/** An order line: a pattern, integer bounds, an optional note with a length limit. */
const Line = Type.Object({
  sku: Type.String({ pattern: '^[A-Z]{3}-\\d+$' }),
  quantity: Type.Integer({ minimum: 1, maximum: 10 }),
  note: Type.Optional(Type.String({ maxLength: 20 })),
});

const lookup = tool({
  name: 'lookup',
  description: 'Find the SKU of a product.',
  input: Type.Object({ product: Type.String({ minLength: 1 }) }),
  execute: ({ product }) => (product === 'widget' ? 'ABC-12' : 'unknown'),
});

function recordEvents(names: readonly (keyof AgentEvents)[]) {
  const seen: { name: keyof AgentEvents; payload: Json }[] = [];
  return {
    seen,
    of: (name: keyof AgentEvents) => seen.filter((entry) => entry.name === name).map((entry) => entry.payload),
    listen: (agent: { on: <E extends keyof AgentEvents>(event: E, listener: (payload: AgentEvents[E]) => void) => () => void }) => {
      for (const name of names) agent.on(name, (payload) => void seen.push({ name, payload: payload as unknown as Json }));
    },
  };
}

const bodyOf = (wire: WireServer, index: number): Json => {
  const body = wire.requests[index]?.body;
  if (typeof body !== 'object' || body === null) throw new Error(`no request #${index}`);
  return body as Json;
};

async function collect<T>(stream: AsyncIterable<AgentStreamPart<T>>): Promise<AgentStreamPart<T>[]> {
  const parts: AgentStreamPart<T>[] = [];
  for await (const part of stream) parts.push(part);
  return parts;
}

describe('output modes on the Anthropic wire', () => {
  const provider = (wire: WireServer) => anthropic({ baseURL: wire.url, apiKey: 'test-key' });

  it('auto on a model with structured outputs sends output_config.format (closed objects, no rejected keyword); a broken bound is re-asked and recovered', async () => {
    const wire = await server();
    // The decoder cannot enforce `maximum` (removed in lowering): the model's 40 gets through it.
    wire.enqueue(anthropicModel({ type: 'answer', intent: { sku: 'ABC-12', quantity: 40 } }), anthropicModel({ type: 'answer', intent: { sku: 'ABC-12', quantity: 4 } }));
    const events = recordEvents(['output.schema-lowered', 'validation.failed', 'model.request']);
    const agent = Agent.create({ provider: provider(wire), model: 'claude-sonnet-4-6' }).outputSchema(Line).build();
    events.listen(agent);
    const result = asComplete(await agent.run('Four widgets, please.'));
    expect(result.value).toEqual({ sku: 'ABC-12', quantity: 4 });
    expect(result.attempts.map((attempt) => attempt.status)).toEqual(['invalid', 'valid']);
    const format = ((bodyOf(wire, 0)['output_config'] as Json)['format'] as Json)['schema'];
    expect(anthropicSchemaDefects(format)).toEqual([]);
    expect(anthropicRequestIssues(bodyOf(wire, 0))).toEqual([]);
    expect(events.of('validation.failed')[0]?.['message']).toMatch(/quantity/);
    expect(events.of('output.schema-lowered')[0]?.['changes']).toMatch(/removed maximum at \/properties\/quantity/);
    expect(events.of('model.request').map((payload) => payload['outputMode'])).toEqual(['native', 'native']);
  });

  it('auto on an older model sends no output_config (prompt mode)', async () => {
    const wire = await server();
    wire.enqueue(anthropicModel({ type: 'answer', intent: '{"sku":"ABC-12","quantity":4}' }));
    const result = asComplete(await Agent.create({ provider: provider(wire), model: 'claude-sonnet-4-20250514' }).outputSchema(Line).build().run('Four widgets.'));
    expect(result.value).toEqual({ sku: 'ABC-12', quantity: 4 });
    expect(bodyOf(wire, 0)).not.toHaveProperty('output_config');
  });

  it.each([false, true])('a strict tool turn, then the final answer, in native mode (streaming: %s)', async (streaming) => {
    const wire = await server();
    wire.enqueue(anthropicModel({ type: 'tool-call', name: 'lookup', intent: { product: 'widget', color: 'red' } }), anthropicModel({ type: 'answer', intent: { sku: 'ABC-12', quantity: 2 } }));
    const agent = Agent.create({ provider: provider(wire), model: 'claude-opus-4-5' }).tool(lookup).outputSchema(Line).build();
    const result = asComplete(streaming ? await agent.stream('Two widgets.').result : await agent.run('Two widgets.'));
    expect(result.value).toEqual({ sku: 'ABC-12', quantity: 2 });
    expect(result.toolCalls).toMatchObject([{ toolName: 'lookup', arguments: { product: 'widget' }, output: 'ABC-12' }]);
    const first = bodyOf(wire, 0);
    expect(first).toMatchObject({ output_config: { format: { type: 'json_schema' } }, tools: [{ name: 'lookup', strict: true }] });
    expect(JSON.stringify((first['tools'] as Json[])[0]?.['input_schema'])).not.toContain('minLength');
    expect(anthropicRequestIssues(first)).toEqual([]);
    expect(anthropicRequestIssues(bodyOf(wire, 1))).toEqual([]);
  });

  it('a 400 refusing the strict schemas recovers in the same run in tool mode, and the next run goes straight there', async () => {
    // 13 optional properties in the output and 13 in a strict tool: each lowers alone, together they
    // pass Anthropic's limit of 24 optional properties in a request, and the API refuses them.
    const optional = (prefix: string) => Object.fromEntries(Array.from({ length: 13 }, (_, index) => [`${prefix}${index}`, Type.Optional(Type.String())]));
    const Wide = Type.Object({ sku: Type.String(), ...optional('extra') });
    const wideTool = tool({ name: 'lookup', description: 'Find a SKU.', input: Type.Object({ product: Type.String(), ...optional('hint') }), execute: () => 'ABC-12' });
    const wire = await server();
    wire.enqueue(
      anthropicModel({ type: 'answer', intent: { sku: 'never sent' } }),
      anthropicModel({ type: 'tool-call', name: 'final_answer', intent: { sku: 'ABC-12', extra1: 'gift' } }),
      anthropicModel({ type: 'tool-call', name: 'final_answer', intent: { sku: 'XYZ-9' } }),
    );
    const events = recordEvents(['output.mode-downgraded', 'model.error']);
    const agent = Agent.create({ provider: provider(wire), model: 'claude-sonnet-4-5' }).tool(wideTool).outputSchema(Wide).build();
    events.listen(agent);
    const first = asComplete(await agent.run('A widget as a gift.'));
    expect(first.value).toEqual({ sku: 'ABC-12', extra1: 'gift' });
    expect(first.attempts.map((attempt) => attempt.errorKind)).toEqual(['schema-refused', 'ok']);
    expect(events.of('output.mode-downgraded')).toMatchObject([{ from: 'native', to: 'tool', strictTools: false, reason: 'schema-rejected', detail: expect.stringMatching(/optional/) }]);
    const retried = bodyOf(wire, 1);
    expect(retried).not.toHaveProperty('output_config');
    expect(retried['tool_choice']).toEqual({ type: 'any' });
    expect((retried['tools'] as Json[]).map((spec) => [spec['name'], spec['strict'] ?? false])).toEqual([
      ['lookup', false],
      ['final_answer', false],
    ]);
    expect(anthropicRequestIssues(retried)).toEqual([]);

    const second = asComplete(await agent.run('Another one.'));
    expect(second.value).toEqual({ sku: 'XYZ-9' });
    expect(second.attempts).toHaveLength(1);
    expect(wire.requests).toHaveLength(3);
    expect(bodyOf(wire, 2)).not.toHaveProperty('output_config');
  });

  it('a streamed run shows partial values that grow to the validated value; a retry resets them', async () => {
    const wire = await server();
    wire.enqueue(anthropicModel({ type: 'answer', intent: { sku: 'ABC-12', quantity: 40, note: 'too many' } }), anthropicModel({ type: 'answer', intent: { sku: 'ABC-12', quantity: 4, note: 'gift wrap' } }));
    const agent = Agent.create({ provider: provider(wire), model: 'claude-sonnet-4-6' }).outputSchema(Line).build();
    const parts = await collect(agent.stream('Four widgets, gift wrapped.', { textMode: 'pass-through' }));
    const retryAt = parts.findIndex((part) => part.type === 'retry');
    expect(parts[retryAt]).toMatchObject({ discardPartialOutput: true, discardStreamedText: true });
    const after = parts.slice(retryAt).flatMap((part) => (part.type === 'partial-output' ? [part.value] : []));
    expect(after.length).toBeGreaterThan(2);
    expect(after[0]).not.toEqual(after.at(-1));
    expect(after.at(-1)).toEqual({ sku: 'ABC-12', quantity: 4, note: 'gift wrap' });
    expect(parts.find((part) => part.type === 'output')).toMatchObject({ value: { sku: 'ABC-12', quantity: 4, note: 'gift wrap' } });
  });
});

describe('output modes on the OpenAI wire', () => {
  const provider = (wire: WireServer) => openai({ baseURL: wire.url, apiKey: 'test-key' });

  it('auto on gpt-4.1 sends a strict json_schema with every property required; an optional field’s null comes back absent', async () => {
    const wire = await server();
    // The model writes no note: strict mode makes it write null.
    wire.enqueue(openAIModel({ type: 'answer', intent: { sku: 'ABC-12', quantity: 2 } }));
    const result = asComplete(await Agent.create({ provider: provider(wire), model: 'gpt-4.1' }).outputSchema(Line).build().run('Two widgets.'));
    expect(result.value).toEqual({ sku: 'ABC-12', quantity: 2 });
    expect(result.value).not.toHaveProperty('note');
    expect(result.coercions).toMatchObject([{ path: ['note'], kind: 'null-to-absent' }]);
    const format = bodyOf(wire, 0)['response_format'] as Json;
    expect(format).toMatchObject({ type: 'json_schema', json_schema: { strict: true } });
    const schema = (format['json_schema'] as Json)['schema'] as Json;
    expect(schema['required']).toEqual(['sku', 'quantity', 'note']);
    expect(schema['additionalProperties']).toBe(false);
    expect(openAIRequestIssues(bodyOf(wire, 0))).toEqual([]);
  });

  it('an optional $ref property: the null strict mode makes the model write comes back absent, as the lowering said', async () => {
    const Shipment = Type.Unsafe<{ sku: string; address?: { city: string } }>({
      type: 'object',
      properties: { sku: { type: 'string' }, address: { $ref: '#/$defs/address' } },
      required: ['sku'],
      additionalProperties: false,
      $defs: { address: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false } },
    });
    const wire = await server();
    // The model sends no address: strict mode makes it write null.
    wire.enqueue(openAIModel({ type: 'answer', intent: { sku: 'ABC-12' } }));
    const result = asComplete(await Agent.create({ provider: provider(wire), model: 'gpt-4.1' }).outputSchema(Shipment).build().run('Ship one widget.'));
    const schema = ((bodyOf(wire, 0)['response_format'] as Json)['json_schema'] as Json)['schema'] as Json;
    expect((schema['properties'] as Json)['address']).toEqual({ anyOf: [{ $ref: '#/$defs/address' }, { type: 'null' }] });
    expect(result.value).toEqual({ sku: 'ABC-12' });
    expect(result.coercions).toMatchObject([{ path: ['address'], kind: 'null-to-absent' }]);
    expect(wire.requests).toHaveLength(1);
  });

  it('a length limit strict mode cannot enforce is re-asked and recovered', async () => {
    const wire = await server();
    wire.enqueue(openAIModel({ type: 'answer', intent: { sku: 'ABC-12', quantity: 2, note: 'please wrap each one separately' } }), openAIModel({ type: 'answer', intent: { sku: 'ABC-12', quantity: 2, note: 'wrap each' } }));
    const result = asComplete(await Agent.create({ provider: provider(wire), model: 'gpt-4.1' }).outputSchema(Line).build().run('Two widgets.'));
    expect(result.value).toEqual({ sku: 'ABC-12', quantity: 2, note: 'wrap each' });
    expect(result.attempts.map((attempt) => attempt.status)).toEqual(['invalid', 'valid']);
  });

  it.each([false, true])('a strict tool turn, then the final answer, in native mode (streaming: %s)', async (streaming) => {
    const wire = await server();
    wire.enqueue(openAIModel({ type: 'tool-call', name: 'lookup', intent: { product: 'widget' } }), openAIModel({ type: 'answer', intent: { sku: 'ABC-12', quantity: 2 } }));
    const agent = Agent.create({ provider: provider(wire), model: 'gpt-4o' }).tool(lookup).outputSchema(Line).build();
    const result = asComplete(streaming ? await agent.stream('Two widgets.').result : await agent.run('Two widgets.'));
    expect(result.value).toEqual({ sku: 'ABC-12', quantity: 2 });
    expect(result.toolCalls).toMatchObject([{ toolName: 'lookup', output: 'ABC-12' }]);
    const first = bodyOf(wire, 0);
    expect(first).toMatchObject({ response_format: { type: 'json_schema', json_schema: { strict: true } }, tools: [{ type: 'function', function: { name: 'lookup', strict: true } }] });
    expect(openAIRequestIssues(first)).toEqual([]);
    expect(openAIRequestIssues(bodyOf(wire, 1))).toEqual([]);
  });

  it('a server that refuses the unlowered schemas: native → tool with a strict answer tool → a plain answer tool, in one run', async () => {
    // A compatible server whose provider claims its schemas need no lowering: the strict checks refuse them.
    const wire = await server();
    const base = provider(wire);
    const unlowered: ModelProvider = { ...base, generate: base.generate.bind(base), lowerSchema: (schema) => ({ schema, changes: [] }) };
    delete (unlowered as { stream?: unknown }).stream;
    wire.enqueue(
      openAIModel({ type: 'answer', intent: { sku: 'never' } }),
      openAIModel({ type: 'answer', intent: { sku: 'never' } }),
      openAIModel({ type: 'tool-call', name: 'final_answer', intent: { sku: 'ABC-12', quantity: 3 } }),
    );
    const events = recordEvents(['output.mode-downgraded']);
    const agent = Agent.create({ provider: unlowered, model: 'gpt-4.1' }).outputSchema(Line).build();
    events.listen(agent);
    const result = asComplete(await agent.run('Three widgets.'));
    expect(result.value).toEqual({ sku: 'ABC-12', quantity: 3 });
    expect(events.of('output.mode-downgraded')).toMatchObject([
      { from: 'native', to: 'tool', strictTools: true, reason: 'schema-rejected' },
      { from: 'tool', to: 'tool', strictTools: false, reason: 'schema-rejected' },
    ]);
    expect(bodyOf(wire, 1)).toMatchObject({ tools: [{ function: { name: 'final_answer', strict: true } }], tool_choice: { type: 'function', function: { name: 'final_answer' } } });
    expect(bodyOf(wire, 2)['tools']).toMatchObject([{ function: { name: 'final_answer' } }]);
    const plainAnswer = (bodyOf(wire, 2)['tools'] as Json[])[0]?.['function'] as Json | undefined;
    expect(plainAnswer?.['strict']).not.toBe(true);
    expect(result.attempts.map((attempt) => attempt.errorKind)).toEqual(['schema-refused', 'schema-refused', 'ok']);
  });
});
