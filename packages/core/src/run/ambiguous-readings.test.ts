import { type TSchema, Type } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import { Agent, type Message } from '../index';
import { asComplete, type Script, scriptedModel } from '../testing/index';

/** An agent answering in `schema`, its model scripted. */
function agentWith(schema: TSchema, script: Script) {
  const model = scriptedModel(script);
  return { model, agent: Agent.create({ provider: model, model: 'm' }).outputSchema(schema).build() };
}

const lastUserText = (messages: readonly Message[]): string => {
  const last = messages.at(-1);
  return last?.role === 'user' && typeof last.content === 'string' ? last.content : '';
};

describe('a reply with two readings is asked again, never read one way', () => {
  it('re-asks a number written as "1.000", which is one or a thousand by where a dot groups digits', async () => {
    const { model, agent } = agentWith(Type.Object({ amount: Type.Number() }), ['{"amount": "1.000"}', '{"amount": 1000}']);
    const result = asComplete(await agent.run('How much?'));
    expect(model.calls).toBe(2);
    expect(result.value).toEqual({ amount: 1000 });
    expect(lastUserText(model.requests[1]?.messages ?? [])).toContain('amount');
  });

  it('still reads "1.5", "0.125" and "1000.5" as the numbers they are', async () => {
    const { model, agent } = agentWith(Type.Object({ a: Type.Number(), b: Type.Number(), c: Type.Number() }), ['{"a": "1.5", "b": "0.125", "c": "1000.5"}']);
    const result = asComplete(await agent.run('Numbers?'));
    expect(model.calls).toBe(1);
    expect(result.value).toEqual({ a: 1.5, b: 0.125, c: 1000.5 });
  });

  it('re-asks an enum value that one allowed value matches without its spaces and another ignoring case', async () => {
    const Status = Type.Object({ status: Type.Union([Type.Literal('draft'), Type.Literal('Draft ')]) });
    const { model, agent } = agentWith(Status, ['{"status": "draft "}', '{"status": "draft"}']);
    const result = asComplete(await agent.run('Status?'));
    expect(model.calls).toBe(2);
    expect(result.value).toEqual({ status: 'draft' });
    expect(result.coercions).toEqual([]);
  });

  it('re-asks a property name that one property matches without its spaces and another ignoring case', async () => {
    const Names = Type.Object({ name: Type.Optional(Type.String()), 'Name ': Type.Optional(Type.String()) }, { additionalProperties: false });
    const { model, agent } = agentWith(Names, ['{"name ": "Ada"}', '{"name": "Ada"}']);
    const result = asComplete(await agent.run('Name?'));
    expect(model.calls).toBe(2);
    expect(result.value).toEqual({ name: 'Ada' });
    expect(result.coercions).toEqual([]);
  });

  it('re-asks "true" where true and "True" are both allowed: a boolean written as a string, or the other value in another case', async () => {
    const Flag = Type.Object({ flag: Type.Union([Type.Literal(true), Type.Literal('True')]) });
    const { model, agent } = agentWith(Flag, ['{"flag": "true"}', '{"flag": true}']);
    const result = asComplete(await agent.run('Flag?'));
    expect(model.calls).toBe(2);
    expect(result.value).toEqual({ flag: true });
  });

  it('re-asks an object followed by a closer that closes nothing when an earlier closer may have come too early', async () => {
    const Order = Type.Object({ customer: Type.Object({ name: Type.String() }, { additionalProperties: true }), total: Type.Optional(Type.Number()) });
    const { model, agent } = agentWith(Order, ['{"customer": {"name": "Ada"}, "total": 5}}', '{"customer": {"name": "Ada", "total": 5}}']);
    const result = asComplete(await agent.run('Order?'));
    expect(model.calls).toBe(2);
    expect(result.value).toEqual({ customer: { name: 'Ada', total: 5 } });
    expect(lastUserText(model.requests[1]?.messages ?? [])).toContain("an extra '}' follows it, or an earlier '}' came too early");
  });
});
