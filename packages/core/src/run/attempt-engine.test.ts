import { type ReliabilityRule, strictOutputRules } from '@keel/reliability';
import { Type } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Agent, type Message, type ModelResponse, ReliabilityFailFastError } from '../index';
import { scriptedModel, asComplete } from '../testing/index';

/** The seed's `{ parse }` recipe: a parser that throws readable messages, and strictOutputRules(3). */
const refund = {
  parse(value: unknown) {
    if (typeof value !== 'object' || value === null) throw new Error('expected an object');
    const { action, amount } = value as { action?: unknown; amount?: unknown };
    if (action !== 'refund' && action !== 'reject') throw new Error(`action must be "refund" or "reject", got ${JSON.stringify(action)}`);
    if (typeof amount !== 'number') throw new Error(`amount must be a number, got ${JSON.stringify(amount)}`);
    return { action, amount };
  },
};

const keptText = (messages: readonly Message[]) => JSON.stringify(messages);

describe('stuck means the same mistake, whatever the validator', () => {
  it('an opaque { parse } parser recovers from prose → "USD 50" → valid in 3 calls', async () => {
    const model = scriptedModel(['I would refund it.', '{"action":"refund","amount":"USD 50"}', '{"action":"refund","amount":50}']);
    const agent = Agent.create({ provider: model, model: 'm' }).outputSchema(refund).reliability({ postDecide: strictOutputRules(3) }).build();
    const result = asComplete(await agent.run('Refund order 42?'));
    expect(result.value).toEqual({ action: 'refund', amount: 50 });
    expect(model.calls).toBe(3);
  });

  it('the same opaque mistake with another value twice stops at 2', async () => {
    const model = scriptedModel(['{"action":"refund","amount":"USD 50"}', '{"action":"refund","amount":"EUR 70"}', '{"action":"refund","amount":50}']);
    const agent = Agent.create({ provider: model, model: 'm' }).outputSchema(refund).reliability({ postDecide: strictOutputRules(3) }).build();
    const error = await agent.run('Refund order 42?').catch((thrown: unknown) => thrown);
    expect(ReliabilityFailFastError.isInstance(error) && [error.kind, error.attempt]).toEqual(['schema-stuck-loop', 2]);
    expect(model.calls).toBe(2);
  });

  it('two different refinement failures of a Zod schema, then a valid answer: 3 calls', async () => {
    const schema = z
      .object({ a: z.number(), b: z.number() })
      .refine((value) => value.a < 10, { message: 'a too big' })
      .refine((value) => value.b < 10, { message: 'b too big' });
    const model = scriptedModel(['{"a":50,"b":1}', '{"a":1,"b":50}', '{"a":1,"b":2}']);
    const agent = Agent.create({ provider: model, model: 'm' }).outputSchema(schema).build();
    expect(asComplete(await agent.run('go')).value).toEqual({ a: 1, b: 2 });
    expect(model.calls).toBe(3);
  });

  it('fixing one of two problems inside a union is progress', async () => {
    const schema = Type.Union([Type.Object({ kind: Type.Literal('a'), n: Type.Number(), s: Type.String() }), Type.Object({ kind: Type.Literal('b'), flag: Type.Boolean() })]);
    const model = scriptedModel(['{"kind":"a","n":"x","s":1}', '{"kind":"a","n":1,"s":2}', '{"kind":"a","n":1,"s":"ok"}']);
    const agent = Agent.create({ provider: model, model: 'm' }).outputSchema(schema, { coerce: false }).build();
    expect(asComplete(await agent.run('go')).value).toEqual({ kind: 'a', n: 1, s: 'ok' });
    expect(model.calls).toBe(3);
  });
});

describe('rules judge the answer', () => {
  const Triage = Type.Object({ summary: Type.String(), refund: Type.Number() });
  type Triage = { summary: string; refund: number };

  it('a rule rejects a valid answer with feedback: 2 calls, the feedback in the second request, nothing of it kept', async () => {
    const seen: { purpose: string; value: unknown }[] = [];
    const capRefunds: ReliabilityRule<ModelResponse, Triage> = {
      kind: 'refund-cap',
      then: 'retry',
      feedbackForLLM: 'Refunds above 1000 need a manager: offer at most 1000.',
      when: (scope) => {
        seen.push({ purpose: scope.purpose, value: scope.value });
        return scope.purpose === 'final-answer' && (scope.value?.refund ?? 0) > 1000;
      },
    };
    const model = scriptedModel(['{"summary":"Broken TV, full refund","refund":5000}', '{"summary":"Broken TV, partial refund","refund":1000}']);
    const agent = Agent.create({ provider: model, model: 'm' }).outputSchema(Triage).reliability({ postDecide: [capRefunds] }).build();
    const result = asComplete(await agent.run('Ticket 7: TV arrived broken'));
    expect(result.value).toEqual({ summary: 'Broken TV, partial refund', refund: 1000 });
    expect(model.calls).toBe(2);
    expect(seen[0]).toEqual({ purpose: 'final-answer', value: { summary: 'Broken TV, full refund', refund: 5000 } });
    const second = model.requests[1]?.messages ?? [];
    expect(second.filter((message) => message.ephemeral)).toEqual([
      { role: 'assistant', content: [{ type: 'text', text: '{"summary":"Broken TV, full refund","refund":5000}' }], ephemeral: true },
      { role: 'user', content: 'Refunds above 1000 need a manager: offer at most 1000.', ephemeral: true },
    ]);
    expect(keptText(result.messages)).not.toContain('5000');
    expect(keptText(result.messages)).not.toContain('need a manager');
    expect(result.attempts.map((attempt) => attempt.errorKind)).toEqual(['rule-rejected', 'ok']);
  });

  it('the same rejection twice stops as stuck, within the output budget', async () => {
    const rule: ReliabilityRule<ModelResponse, Triage> = { kind: 'refund-cap', then: 'retry', feedbackForLLM: 'At most 1000.', when: (scope) => (scope.value?.refund ?? 0) > 1000 };
    const model = scriptedModel('{"summary":"s","refund":5000}');
    const agent = Agent.create({ provider: model, model: 'm' }).outputSchema(Triage).reliability({ postDecide: [rule] }).build();
    const error = await agent.run('go').catch((thrown: unknown) => thrown);
    expect(ReliabilityFailFastError.isInstance(error) && [error.kind, error.errorKind]).toEqual(['schema-stuck-loop', 'rule-rejected']);
    expect(model.calls).toBe(2);
  });

  it('a rule can reject an answer without an output schema (the text), bounded the same way', async () => {
    const rule: ReliabilityRule<ModelResponse, string> = { kind: 'no-shouting', then: 'retry', feedbackForLLM: 'Do not shout.', when: (scope) => typeof scope.value === 'string' && scope.value === scope.value.toUpperCase() };
    const model = scriptedModel(['HELLO', 'Hello']);
    const result = await Agent.create({ provider: model, model: 'm' }).reliability({ postDecide: [rule] }).build().run('greet');
    expect(result.text).toBe('Hello');
    expect(model.requests[1]?.messages.at(-1)).toEqual({ role: 'user', content: 'Do not shout.', ephemeral: true });
  });

  it('tells a tool-call turn from a final answer', async () => {
    const purposes: string[] = [];
    const observe: ReliabilityRule<ModelResponse> = {
      kind: 'observe',
      then: 'accept',
      when: (scope) => {
        purposes.push(scope.purpose);
        return false;
      },
    };
    const model = scriptedModel([{ toolCalls: [{ name: 'look', arguments: {} }] }, 'done']);
    const look = { name: 'look' };
    const { tool } = await import('../index');
    await Agent.create({ provider: model, model: 'm' })
      .tool(tool({ ...look, description: 'looks', input: Type.Object({}), execute: () => 'seen' }))
      .reliability({ postDecide: [observe] })
      .build()
      .run('go');
    expect(purposes).toEqual(['tool-call-turn', 'final-answer']);
  });

  it("a rule's stop on a valid answer says so", async () => {
    const rule: ReliabilityRule<ModelResponse> = { kind: 'legal-review', label: 'mentions a lawsuit', then: 'fail-fast', when: (scope) => String(scope.value).includes('lawsuit') };
    const error = await Agent.create({ provider: scriptedModel('We will face a lawsuit.'), model: 'm' }).reliability({ postDecide: [rule] }).build().run('go').catch((thrown: unknown) => thrown);
    expect(ReliabilityFailFastError.isInstance(error) && error.kind).toBe('legal-review');
    expect((error as Error).message).toContain('stopped a valid answer: mentions a lawsuit');
    expect((error as Error).message).not.toContain('last failure ok');
  });

  it('a stop after used-up transient retries says so', async () => {
    const busy = Object.assign(new Error('overloaded'), { errorKind: 'overloaded' as const });
    const error = await Agent.create({ provider: scriptedModel([busy, busy, busy]), model: 'm' }).build().run('go').catch((thrown: unknown) => thrown);
    expect(ReliabilityFailFastError.isInstance(error) && error.kind).toBe('transient-retries-exhausted');
    expect((error as Error).message).toContain('transient retries exhausted: 2 of 2');
  });
});

describe('a rule that rejects a tool-call turn', () => {
  it('echoes the calls as data and never sends an empty assistant turn', async () => {
    const { tool } = await import('../index');
    let rejected = false;
    const noDeletes: ReliabilityRule<ModelResponse> = {
      kind: 'no-deletes',
      then: 'retry',
      feedbackForLLM: 'Do not delete; archive instead.',
      when: (scope) => {
        if (rejected || scope.purpose !== 'tool-call-turn') return false;
        rejected = true;
        return true;
      },
    };
    const model = scriptedModel([{ toolCalls: [{ name: 'remove', arguments: { id: 7 } }] }, { toolCalls: [{ name: 'remove', arguments: { id: 7, archive: true } }] }, 'done']);
    const remove = tool({ name: 'remove', description: 'removes', input: Type.Object({ id: Type.Number(), archive: Type.Optional(Type.Boolean()) }), execute: () => 'ok' });
    const result = await Agent.create({ provider: model, model: 'm' }).tool(remove).reliability({ postDecide: [noDeletes] }).build().run('go');
    expect(result.text).toBe('done');
    const echo = model.requests[1]?.messages.filter((message) => message.ephemeral) ?? [];
    expect(echo[0]).toEqual({ role: 'assistant', content: [{ type: 'text', text: '{"call":"remove","arguments":{"id":7}}' }], ephemeral: true });
    expect(echo[1]).toEqual({ role: 'user', content: 'Do not delete; archive instead.', ephemeral: true });
  });

  it('an empty answer rejected by a rule is not echoed as an empty assistant turn', async () => {
    const rule: ReliabilityRule<ModelResponse> = { kind: 'say-something', then: 'retry', feedbackForLLM: 'Say something.', when: (scope) => scope.value === '' };
    const model = scriptedModel(['', 'hello']);
    const result = await Agent.create({ provider: model, model: 'm' }).reliability({ postDecide: [rule] }).build().run('go');
    expect(result.text).toBe('hello');
    expect(model.requests[1]?.messages.filter((message) => message.ephemeral)).toEqual([{ role: 'user', content: 'Say something.', ephemeral: true }]);
  });
});
