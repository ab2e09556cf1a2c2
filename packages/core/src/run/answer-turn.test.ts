import { Type } from '@sinclair/typebox';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Agent } from '../index';
import { type Script, scriptedModel, asComplete } from '../testing/index';

const Decision = Type.Object({ action: Type.Union([Type.Literal('refund'), Type.Literal('reject')]), amount: Type.Number() }, { additionalProperties: false });
const call = (action: string, amount: unknown) => ({ name: 'final_answer', arguments: { action, amount } });

function agentOf(...turns: Extract<Script, readonly unknown[]>) {
  const model = scriptedModel(turns);
  return { model, agent: Agent.create({ provider: model, model: 'm' }).outputSchema(Decision, { mode: 'tool' }).build() };
}

describe('tool output mode with several answer calls in one turn', () => {
  it('two different answers are refused as a text reply with two values is, and asked again', async () => {
    const { model, agent } = agentOf({ toolCalls: [call('refund', 500), call('reject', 0)] }, { toolCalls: [call('reject', 0)] });
    const result = asComplete(await agent.run('decide'));
    expect(result.value).toEqual({ action: 'reject', amount: 0 });
    expect(model.calls).toBe(2);
    expect(result.attempts[0]).toMatchObject({ errorKind: 'parse-fail' });
    // The same reply as text is refused the same way.
    const text = agentOf('{"action": "refund", "amount": 500}\n{"action": "reject", "amount": 0}', '{"action": "reject", "amount": 0}');
    const fromText = await text.agent.run('decide');
    expect(fromText.attempts[0]?.errorKind).toBe(result.attempts[0]?.errorKind);
  });

  it('the same answer given twice is that answer', async () => {
    const { model, agent } = agentOf({ toolCalls: [call('refund', 500), call('refund', 500)] });
    expect(asComplete(await agent.run('decide')).value).toEqual({ action: 'refund', amount: 500 });
    expect(model.calls).toBe(1);
  });

  it('a valid answer followed by an invalid one is never taken over the final one', async () => {
    const { model, agent } = agentOf({ toolCalls: [call('refund', 500), call('refund', 'all of it')] }, { toolCalls: [call('refund', 450)] });
    const result = asComplete(await agent.run('decide'));
    expect(result.value).toEqual({ action: 'refund', amount: 450 });
    expect(model.calls).toBe(2);
  });
});

describe('several answer calls, attacked', () => {
  it('any number of answer calls: taken only when they all say the same, never the first of several that differ', async () => {
    const answer = fc.record({ action: fc.constantFrom('refund', 'reject'), amount: fc.constantFrom(0, 500, 500.0, 499.99) });
    await fc.assert(
      fc.asyncProperty(fc.array(answer, { minLength: 1, maxLength: 4 }), async (answers) => {
        const { agent } = agentOf({ toolCalls: answers.map((one) => call(one.action, one.amount)) }, { toolCalls: [call('reject', 1)] });
        const result = asComplete(await agent.run('decide'));
        const same = answers.every((one) => JSON.stringify(one) === JSON.stringify(answers[0]));
        expect(result.value).toEqual(same ? answers[0] : { action: 'reject', amount: 1 });
      }),
      { numRuns: 60 },
    );
  });
});
