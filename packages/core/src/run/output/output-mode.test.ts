import { Type } from '@sinclair/typebox';
import { failoverRule } from '@keel/reliability';
import { describe, expect, it } from 'vitest';
import { Agent, AgentConfigurationError, ReliabilityFailFastError, tool } from '../../index';
import type { LoweredSchema, ModelRequest, SchemaRejection } from '@keel/provider';
import { type Script, scriptedModel, type ScriptedModelOptions, asComplete } from '../../testing/index';
import { recorder } from '../../testing/event-recorder';

const Order = Type.Object({
  sku: Type.String({ maxLength: 8 }),
  quantity: Type.Integer({ minimum: 1, maximum: 10 }),
  note: Type.Optional(Type.String()),
});

const VALID = '{"sku":"ABC-12","quantity":2}';

/** A decoder that accepts no numeric bounds and no string lengths, as Anthropic's. */
function lowerWithoutBounds(schema: Readonly<Record<string, unknown>>): LoweredSchema | undefined {
  const changes: string[] = [];
  const visit = (node: unknown, path: string): unknown => {
    if (typeof node !== 'object' || node === null || Array.isArray(node)) return node;
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(node)) {
      if (['minimum', 'maximum', 'maxLength'].includes(key)) changes.push(`removed ${key} at ${path || '/'}`);
      else if (key === 'properties' && typeof value === 'object' && value !== null) out[key] = Object.fromEntries(Object.entries(value).map(([name, child]) => [name, visit(child, `${path}/properties/${name}`)]));
      else out[key] = value;
    }
    if (out['type'] === 'object') out['additionalProperties'] = false;
    return out;
  };
  return { schema: visit(schema, '') as Record<string, unknown>, changes };
}

const NATIVE: ScriptedModelOptions = { capabilities: { nativeOutput: true, strictTools: true }, lowerSchema: lowerWithoutBounds };

/** A 400 refusing a schema, as the providers throw it. */
function schemaRejected(which: SchemaRejection): Error {
  return Object.assign(new Error(`400 output_config.format.schema: For 'integer' type, property 'minimum' is not supported`), { errorKind: 'bad-request', status: 400, schemaRejected: which });
}

function agentOn(script: Script, options: ScriptedModelOptions = NATIVE, mode?: 'auto' | 'native' | 'tool' | 'prompt') {
  const model = scriptedModel(script, options);
  const events = recorder('output.mode-downgraded', 'output.schema-lowered', 'model.request', 'validation.failed');
  const builder = events.attach(Agent.create({ provider: model, model: 'm' }).outputSchema(Order, mode === undefined ? {} : { mode }));
  return { model, events, builder };
}

const at = (requests: readonly ModelRequest[], index: number): ModelRequest => {
  const request = requests[index];
  if (!request) throw new Error(`no request #${index}`);
  return request;
};

describe('output modes', () => {
  it('auto sends a strict, lowered response format where the provider declares native output, and reports what lowering removed', async () => {
    const { model, events, builder } = agentOn([VALID]);
    const result = asComplete(await builder.build().run('order'));
    expect(result.value).toEqual({ sku: 'ABC-12', quantity: 2 });
    const format = at(model.requests, 0).responseFormat;
    expect(format).toMatchObject({ type: 'json', strict: true });
    expect(format?.schema).toMatchObject({ additionalProperties: false, properties: { quantity: { type: 'integer' } } });
    expect(JSON.stringify(format?.schema)).not.toMatch(/minimum|maximum|maxLength/);
    expect(events.of('model.request')[0]?.outputMode).toBe('native');
    expect(events.of('output.schema-lowered')).toMatchObject([{ subject: 'output', changes: expect.stringContaining('removed minimum at /properties/quantity') }]);
  });

  it('auto is prompt where the provider declares nothing: no response format, as before', async () => {
    const { model, events, builder } = agentOn([VALID], {});
    await builder.build().run('order');
    expect(at(model.requests, 0).responseFormat).toBeUndefined();
    expect(events.of('model.request')[0]?.outputMode).toBe('prompt');
    expect(events.of('output.mode-downgraded')).toEqual([]);
  });

  it('re-asks a native answer that breaks a bound the decoder could not enforce, and recovers', async () => {
    const { model, events, builder } = agentOn(['{"sku":"ABC-12","quantity":40}', VALID]);
    const result = asComplete(await builder.build().run('order'));
    expect(result.value).toEqual({ sku: 'ABC-12', quantity: 2 });
    expect(model.calls).toBe(2);
    expect(events.of('validation.failed')[0]?.message).toMatch(/quantity/);
    // The re-ask keeps the native format.
    expect(at(model.requests, 1).responseFormat?.strict).toBe(true);
  });

  it('reads a null for an optional property (nullable on a strict decoder) as absent, recorded as a coercion', async () => {
    const { builder } = agentOn(['{"sku":"ABC-12","quantity":2,"note":null}']);
    const result = asComplete(await builder.build().run('order'));
    expect(result.value).toEqual({ sku: 'ABC-12', quantity: 2 });
    expect(result.coercions).toMatchObject([{ path: ['note'], kind: 'null-to-absent' }]);
  });

  it('the downgrade retry is a policy decision: reported as a retry of rule schema-downgrade, and bounded by maxAttempts', async () => {
    const script = (request: ModelRequest) => (request.responseFormat || request.tools ? schemaRejected('both') : VALID);
    const bounded = scriptedModel(script, NATIVE);
    const error = await Agent.create({ provider: bounded, model: 'm', maxAttempts: 1 })
      .outputSchema(Order)
      .build()
      .run('order')
      .catch((thrown: unknown) => thrown);
    expect(ReliabilityFailFastError.isInstance(error) && error.kind).toBe('loop-cap');
    expect(bounded.calls).toBe(1);

    const retries: string[] = [];
    const model = scriptedModel((request) => (request.responseFormat ? schemaRejected('output') : { toolCalls: [{ name: 'final_answer', arguments: { sku: 'ABC-12', quantity: 2 } }] }), NATIVE);
    const result = asComplete(await Agent.create({ provider: model, model: 'm' })
      .outputSchema(Order)
      .on('reliability.retry', (event) => void retries.push(event.rule))
      .build()
      .run('order'));
    expect(result.value).toEqual({ sku: 'ABC-12', quantity: 2 });
    expect(retries).toEqual(['schema-downgrade']);
    expect(model.calls).toBe(2);
  });

  it('a 400 refusing the output schema recovers in the same run in tool mode, reported, and the next run goes straight there', async () => {
    const { model, events, builder } = agentOn((request) => (request.responseFormat ? schemaRejected('output') : { toolCalls: [{ name: 'final_answer', arguments: { sku: 'ABC-12', quantity: 2 } }] }));
    const agent = builder.build();
    const first = asComplete(await agent.run('order'));
    expect(first.value).toEqual({ sku: 'ABC-12', quantity: 2 });
    expect(first.attempts.map((attempt) => attempt.errorKind)).toEqual(['schema-refused', 'ok']);
    expect(events.of('output.mode-downgraded')).toMatchObject([{ from: 'native', to: 'tool', reason: 'schema-rejected', detail: expect.stringContaining('minimum') }]);
    const retried = at(model.requests, 1);
    expect(retried.responseFormat).toBeUndefined();
    expect(retried.tools?.map((spec) => spec.name)).toEqual(['final_answer']);
    expect(retried.toolChoice).toEqual({ type: 'tool', name: 'final_answer' });
    // The final answer is text in kept history: no tool call is left without a result.
    expect(first.messages.at(-1)).toEqual({ role: 'assistant', content: [{ type: 'text', text: VALID }] });

    const second = await agent.run('order again');
    expect(second.attempts).toHaveLength(1);
    expect(model.calls).toBe(3);
    expect(at(model.requests, 2).responseFormat).toBeUndefined();
    expect(events.of('output.mode-downgraded')).toHaveLength(1);
  });
});

describe('output modes', () => {
  it('two runs refused at once both recover, and the level never goes back up', async () => {
    let refusals = 0;
    const { model, events, builder } = agentOn(async (request) => {
      if (request.responseFormat) {
        refusals++;
        await new Promise((resolve) => setTimeout(resolve, 20));
        return schemaRejected('output');
      }
      return { toolCalls: [{ name: 'final_answer', arguments: { sku: 'ABC-12', quantity: 2 } }] };
    });
    const agent = builder.build();
    const results = await Promise.all([agent.run('a'), agent.run('b')]);
    expect(results.map((result) => asComplete(result).value)).toEqual([
      { sku: 'ABC-12', quantity: 2 },
      { sku: 'ABC-12', quantity: 2 },
    ]);
    expect(refusals).toBe(2);
    expect(events.of('output.mode-downgraded')).toHaveLength(2);
    await agent.run('c');
    expect(refusals).toBe(2);
    expect(model.calls).toBe(5);
  });

  it('each failover target gets its own mode: native on the primary, prompt on a fallback model without native output', async () => {
    const primary = scriptedModel([Object.assign(new Error('529 overloaded'), { errorKind: 'overloaded' })], NATIVE);
    const backup = scriptedModel([VALID]);
    const result = asComplete(await Agent.create({ provider: primary, model: 'm', failover: [{ provider: backup, model: 'b' }] })
      .outputSchema(Order)
      .reliability({ postDecide: [failoverRule()] })
      .build()
      .run('order'));
    expect(result.value).toEqual({ sku: 'ABC-12', quantity: 2 });
    expect(at(primary.requests, 0).responseFormat?.strict).toBe(true);
    expect(at(backup.requests, 0).responseFormat).toBeUndefined();
  });

  it('another 400 is not a downgrade: the run fails fast', async () => {
    const { model, events, builder } = agentOn([Object.assign(new Error('400 messages: roles must alternate'), { errorKind: 'bad-request', status: 400 })]);
    await expect(builder.build().run('order')).rejects.toSatisfy(ReliabilityFailFastError.isInstance);
    expect(model.calls).toBe(1);
    expect(events.of('output.mode-downgraded')).toEqual([]);
  });

  it('a schemaRejected marker on a transient error, or a hostile getter, is not read as a downgrade', async () => {
    const hostile = Object.defineProperty(Object.assign(new Error('400'), { errorKind: 'bad-request' }), 'schemaRejected', {
      get() {
        throw new Error('boom');
      },
    });
    const { model, builder } = agentOn([hostile]);
    await expect(builder.build().run('order')).rejects.toSatisfy(ReliabilityFailFastError.isInstance);
    expect(model.calls).toBe(1);
  });

  it('a schema the provider cannot lower falls back to the next mode, reported', async () => {
    const { model, events, builder } = agentOn([{ toolCalls: [{ name: 'final_answer', arguments: { sku: 'ABC-12', quantity: 2 } }] }], { capabilities: { nativeOutput: true }, lowerSchema: () => undefined });
    const result = asComplete(await builder.build().run('order'));
    expect(result.value).toEqual({ sku: 'ABC-12', quantity: 2 });
    expect(at(model.requests, 0).responseFormat).toBeUndefined();
    expect(events.of('output.mode-downgraded')).toMatchObject([{ from: 'native', to: 'tool', reason: 'not-lowerable' }]);
  });

  it('a lowerSchema that throws or returns something that is not a schema counts as not lowerable', async () => {
    for (const lowerSchema of [
      () => {
        throw new Error('boom');
      },
      () => ({ schema: 'nope' }) as never,
      () => null as never,
    ]) {
      const { model, events, builder } = agentOn([{ toolCalls: [{ name: 'final_answer', arguments: { sku: 'ABC-12', quantity: 2 } }] }], { capabilities: { nativeOutput: true }, lowerSchema });
      expect(asComplete(await builder.build().run('order')).value).toEqual({ sku: 'ABC-12', quantity: 2 });
      expect(at(model.requests, 0).responseFormat).toBeUndefined();
      expect(events.of('output.mode-downgraded')).toMatchObject([{ reason: 'not-lowerable' }]);
    }
  });
});

describe('output modes', () => {
  it('a provider that refuses every schema is downgraded a bounded number of times, then the 400 fails the run', async () => {
    const { model, events, builder } = agentOn(() => schemaRejected('both'));
    await expect(builder.build().run('order')).rejects.toSatisfy(ReliabilityFailFastError.isInstance);
    // native+strict → tool without strict tools (both refused at once): then nothing strict is left to refuse.
    expect(model.calls).toBe(2);
    expect(events.of('output.mode-downgraded')).toMatchObject([{ from: 'native', to: 'tool', strictTools: false }]);
  });

  it('tool mode: a tool turn, then the answer tool; its arguments go through final-answer validation and feedback', async () => {
    const lookup = tool({ name: 'lookup', description: 'Find a SKU.', input: Type.Object({ query: Type.String() }), execute: () => 'ABC-12' });
    const model = scriptedModel(
      [
        { toolCalls: [{ name: 'lookup', arguments: { query: 'widget' } }] },
        { toolCalls: [{ name: 'final_answer', arguments: { sku: 'ABC-12', quantity: 0 } }] },
        { toolCalls: [{ name: 'final_answer', arguments: {}, argumentsText: '{"sku": "ABC-12", "quantity": 2,}' }] },
      ],
      {},
    );
    const result = asComplete(await Agent.create({ provider: model, model: 'm' }).tool(lookup).outputSchema(Order, { mode: 'tool' }).build().run('order a widget'));
    expect(result.value).toEqual({ sku: 'ABC-12', quantity: 2 });
    expect(result.repairs).toContain('trailing-comma');
    expect(result.toolCalls.map((call) => call.toolName)).toEqual(['lookup']);
    expect(result.steps).toHaveLength(2);
    expect(at(model.requests, 0).toolChoice).toEqual({ type: 'required' });
    expect(at(model.requests, 0).tools?.map((spec) => spec.name)).toEqual(['lookup', 'final_answer']);
    // The rejected answer comes back as feedback naming the bound.
    const retry = at(model.requests, 2).messages;
    expect(retry.at(-1)).toMatchObject({ role: 'user', ephemeral: true, content: expect.stringMatching(/quantity/) });
    expect(result.attempts.map((attempt) => attempt.status)).toEqual(['valid', 'invalid', 'valid']);
  });

  it('tool mode: an answer call beside a user tool call is dropped, so the model answers after the results', async () => {
    const lookup = tool({ name: 'lookup', description: 'Find a SKU.', input: Type.Object({ query: Type.String() }), execute: () => 'ABC-12' });
    const model = scriptedModel([
      { toolCalls: [{ name: 'lookup', arguments: { query: 'widget' } }, { name: 'final_answer', arguments: { sku: 'guess', quantity: 1 } }] },
      { toolCalls: [{ name: 'final_answer', arguments: { sku: 'ABC-12', quantity: 1 } }] },
    ]);
    const result = asComplete(await Agent.create({ provider: model, model: 'm' }).tool(lookup).outputSchema(Order, { mode: 'tool' }).build().run('order'));
    expect(result.value).toEqual({ sku: 'ABC-12', quantity: 1 });
    const kept = result.messages[1];
    expect(kept?.role === 'assistant' && Array.isArray(kept.content) ? kept.content.map((part) => (part.type === 'tool-call' ? part.name : part.type)) : []).toEqual(['lookup']);
  });

  it('strict tools: lowered and strict where the model supports them; tool({ strict: false }) opts out; a 400 refusing a tool schema turns them off', async () => {
    const lookup = tool({ name: 'lookup', description: 'Find a SKU.', input: Type.Object({ query: Type.String({ maxLength: 20 }) }), execute: () => 'ABC-12' });
    const loose = tool({ name: 'loose', description: 'Anything.', input: Type.Object({ text: Type.String() }), strict: false, execute: () => 'ok' });
    let first = true;
    const model = scriptedModel((request) => {
      if (first && request.tools?.some((spec) => spec.strict)) {
        first = false;
        return schemaRejected('tool');
      }
      return VALID;
    }, NATIVE);
    const events = recorder('output.mode-downgraded');
    const result = asComplete(await events.attach(Agent.create({ provider: model, model: 'm' }).tools([lookup, loose]).outputSchema(Order)).build().run('order'));
    expect(result.value).toEqual({ sku: 'ABC-12', quantity: 2 });
    const [strictLookup, plainLoose] = at(model.requests, 0).tools ?? [];
    expect(strictLookup).toMatchObject({ name: 'lookup', strict: true, inputSchema: { additionalProperties: false } });
    expect(JSON.stringify(strictLookup?.inputSchema)).not.toContain('maxLength');
    expect(plainLoose?.strict).toBeUndefined();
    expect(at(model.requests, 1).tools?.some((spec) => spec.strict)).toBe(false);
    // The output format is kept: only strict tools were refused.
    expect(at(model.requests, 1).responseFormat?.strict).toBe(true);
    expect(events.of('output.mode-downgraded')).toMatchObject([{ from: 'native', to: 'native', strictTools: false }]);
  });

  it('strictTools: false sends no strict tool, except a tool that asks for it', async () => {
    const lookup = tool({ name: 'lookup', description: 'Find a SKU.', input: Type.Object({ query: Type.String() }), execute: () => 'ABC-12' });
    const pinned = tool({ name: 'pinned', description: 'Strict anyway.', input: Type.Object({ query: Type.String() }), strict: true, execute: () => 'ABC-12' });
    const model = scriptedModel([VALID], NATIVE);
    await Agent.create({ provider: model, model: 'm', strictTools: false }).tools([lookup, pinned]).outputSchema(Order).build().run('order');
    expect(at(model.requests, 0).tools?.map((spec) => spec.strict)).toEqual([undefined, true]);
  });
});

describe('output mode configuration', () => {
  const build = (configure: () => unknown) => {
    try {
      configure();
    } catch (error) {
      if (AgentConfigurationError.isInstance(error)) return `${error.setting}: ${error.message}`;
      throw error;
    }
    return 'built';
  };

  it('refuses nativeStructuredOutput with its new name', () => {
    const model = scriptedModel(VALID);
    expect(build(() => Agent.create({ provider: model, model: 'm' }).outputSchema(Order, { nativeStructuredOutput: true } as never).build())).toMatch(/outputSchema\.nativeStructuredOutput.*mode: 'native'/);
  });

  it('refuses a mode the model cannot carry, an unknown mode, and a tool named like the answer tool', () => {
    const plain = scriptedModel(VALID);
    expect(build(() => Agent.create({ provider: plain, model: 'm' }).outputSchema(Order, { mode: 'native' }).build())).toMatch(/outputSchema\.mode.*does not declare native output/);
    expect(build(() => Agent.create({ provider: plain, model: 'm' }).outputSchema(Order, { mode: 'fast' as never }).build())).toMatch(/outputSchema\.mode: .*must be one of/);
    expect(build(() => Agent.create({ provider: plain, model: 'm' }).outputSchema(Type.Array(Type.String()), { mode: 'tool' }).build())).toMatch(/not an object schema/);
    const clash = tool({ name: 'final_answer', description: 'mine', input: Type.Object({}), execute: () => 'x' });
    expect(build(() => Agent.create({ provider: plain, model: 'm' }).tool(clash).outputSchema(Order).build())).toMatch(/tool:final_answer/);
    // Without an output schema the name is the user's.
    expect(build(() => Agent.create({ provider: plain, model: 'm' }).tool(clash).build())).toBe('built');
  });

  it('refuses strict tools the model does not support when asked for explicitly', () => {
    const plain = scriptedModel(VALID);
    const strict = tool({ name: 'lookup', description: 'x', input: Type.Object({}), strict: true, execute: () => 'x' });
    expect(build(() => Agent.create({ provider: plain, model: 'm', strictTools: true }).build())).toMatch(/^strictTools/);
    expect(build(() => Agent.create({ provider: plain, model: 'm', strictTools: 'yes' as never }).build())).toMatch(/must be 'auto', true or false/);
    expect(build(() => Agent.create({ provider: plain, model: 'm' }).tool(strict).build())).toMatch(/tool:lookup\.strict/);
    expect(build(() => Agent.create({ provider: plain, model: 'm', strictTools: false }).tool(strict).build())).toBe('built');
  });

  it('a provider whose capabilities() throws declares nothing', async () => {
    const model = scriptedModel([VALID], {
      capabilities: () => {
        throw new Error('boom');
      },
    });
    const result = asComplete(await Agent.create({ provider: model, model: 'm' }).outputSchema(Order).build().run('x'));
    expect(result.value).toEqual({ sku: 'ABC-12', quantity: 2 });
    expect(model.requests[0]?.responseFormat).toBeUndefined();
  });
});
