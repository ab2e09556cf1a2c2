import { Type } from '@sinclair/typebox';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { Agent, AgentConfigurationError, type RunResult, RunSuspendedError, tool } from '../index';
import { asComplete, asSuspended, scriptedModel } from '../testing/index';
import type { RunStateSnapshot } from '../contracts/run-state-snapshot';

const Refund = Type.Object({ action: Type.Union([Type.Literal('refund'), Type.Literal('reject')]), amount: Type.Number() });
type Refund = { action: 'refund' | 'reject'; amount: number };

/** An agent whose refund tool needs approval: its first run suspends. */
function approvalAgent() {
  const refund = tool({ name: 'refund', description: 'refunds', input: Type.Object({ amount: Type.Number() }), needsApproval: true, execute: ({ amount }) => `refunded ${amount}` });
  const model = scriptedModel([{ toolCalls: [{ id: 'c1', name: 'refund', arguments: { amount: 40 } }] }, '{"action":"refund","amount":40}']);
  return Agent.create({ provider: model, model: 'm' }).tool(refund).outputSchema(Refund).build();
}

describe('RunResult is a union on status', () => {
  it('types value only on a complete result and state only on a suspended one (the probes below fail to compile)', async () => {
    const result = await approvalAgent().run('Refund 40');
    expectTypeOf(result).toEqualTypeOf<RunResult<Refund>>();
    // @ts-expect-error: `value` without narrowing on `status` (a suspended run has none)
    void result.value;
    // @ts-expect-error: `state` without narrowing on `status` (a complete run has none)
    void result.state;
    if (result.status === 'suspended') {
      expectTypeOf(result.state).toEqualTypeOf<RunStateSnapshot>();
      // @ts-expect-error: a suspended result has no value
      void result.value;
    } else {
      expectTypeOf(result.value).toEqualTypeOf<Refund>();
      expectTypeOf(result.pendingApprovals).toEqualTypeOf<readonly []>();
    }
    expect(result.status).toBe('suspended');
  });

  it('a suspended result has no value at run time either, and its state is set', async () => {
    const result = asSuspended(await approvalAgent().run('Refund 40'));
    expect('value' in result).toBe(false);
    expect('provenance' in result).toBe(false);
    expect(result.state.pending).toEqual(result.pendingApprovals);
    expect(result.pendingApprovals).toHaveLength(1);
  });

  it('a complete result has no state, and an empty pendingApprovals', async () => {
    const agent = Agent.create({ provider: scriptedModel('{"action":"reject","amount":0}'), model: 'm' }).outputSchema(Refund).build();
    const result = asComplete(await agent.run('Refund?'));
    expect('state' in result).toBe(false);
    expect(result.pendingApprovals).toEqual([]);
    expect(result.value).toEqual({ action: 'reject', amount: 0 });
  });

  it('narrows the stream result the same way', async () => {
    const stream = approvalAgent().stream('Refund 40');
    const result = await stream.result;
    // @ts-expect-error: the stream's result is the same union
    void result.value;
    for await (const part of approvalAgent().stream('Refund 40')) {
      // @ts-expect-error: and so is its `result` part's
      if (part.type === 'result') void part.result.value;
    }
    expect(result.status).toBe('suspended');
  });
});

describe('runTyped exists only with an output schema', () => {
  it('is a type error on an agent without an output schema, and throws past the types', async () => {
    const plain = Agent.create({ provider: scriptedModel('hello'), model: 'm' }).build();
    // @ts-expect-error: runTyped() needs an output schema
    const call = () => plain.runTyped('hi');
    await expect(call()).rejects.toThrow(AgentConfigurationError);
  });

  it('is typed by the schema, and a string output schema has it too', async () => {
    const typed = Agent.create({ provider: scriptedModel('{"action":"refund","amount":5}'), model: 'm' }).outputSchema(Refund).build();
    const value = await typed.runTyped('Refund?');
    expectTypeOf(value).toEqualTypeOf<Refund>();
    expect(value).toEqual({ action: 'refund', amount: 5 });
    const text = Agent.create({ provider: scriptedModel('"hi"'), model: 'm' }).outputSchema(Type.String()).build();
    expectTypeOf(await text.runTyped('hi')).toEqualTypeOf<string>();
  });

  it('keeps the schema through every builder call after it', () => {
    const builder = Agent.create({ provider: scriptedModel('x'), model: 'm' }).outputSchema(Refund).system('s').on('run.end', () => undefined).use((given) => given);
    expectTypeOf(builder.build().runTyped).toBeCallableWith('hi');
    const none = Agent.create({ provider: scriptedModel('x'), model: 'm' }).system('s').use((given) => given).build();
    // @ts-expect-error: built without an output schema, through the same calls
    void (() => none.runTyped('hi'));
  });

  it('throws RunSuspendedError, carrying the suspended result, when the run suspends', async () => {
    const error = await approvalAgent().runTyped('Refund 40').catch((thrown: unknown) => thrown);
    expect(RunSuspendedError.isInstance(error)).toBe(true);
    if (RunSuspendedError.isInstance(error)) expectTypeOf(error.result.state).toEqualTypeOf<RunStateSnapshot>();
  });
});
