import { Type } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import { Agent, type Message, ReliabilityFailFastError } from '../index';
import { type Script, scriptedModel, asComplete } from '../testing/index';
import { recorder } from '../testing/event-recorder';

const Refund = Type.Object({ action: Type.Union([Type.Literal('refund'), Type.Literal('reject')]), amount: Type.Number() }, { additionalProperties: false });

function refundAgent(script: Script, options: Parameters<ReturnType<typeof Agent.create>['outputSchema']>[1] = {}) {
  const model = scriptedModel(script);
  return { model, builder: Agent.create({ provider: model, model: 'm' }).outputSchema(Refund, options) };
}

const lastUserText = (messages: readonly Message[]): string => {
  const last = messages.at(-1);
  return last?.role === 'user' && typeof last.content === 'string' ? last.content : '';
};

describe('candidates in one reply', () => {
  it('asks for exactly one value when a draft and a final answer both match', async () => {
    const { model, builder } = refundAgent(['Draft: {"action": "refund", "amount": 40}\nFinal: {"action": "refund", "amount": 50}', '{"action": "refund", "amount": 50}']);
    const result = asComplete(await builder.build().run('Refund order 42'));
    expect(model.calls).toBe(2);
    expect(result.value).toEqual({ action: 'refund', amount: 50 });
    const feedback = lastUserText(model.requests[1]?.messages ?? []);
    expect(feedback).toContain('could not be parsed as JSON');
    expect(feedback).toContain('The reply held 2 JSON values, 2 of them different and each matching the schema; reply with exactly one JSON value');
  });

  it('takes the valid value with zero re-asks when a longer candidate is invalid', async () => {
    const events = recorder('output.repaired');
    const { model, builder } = refundAgent([
      'The shape is {"action": "refund | reject", "amount": "number", "reason": "why, in a sentence"}. My answer: {"action": "reject", "amount": 0}',
    ]);
    const result = asComplete(await events.attach(builder).build().run('Refund order 42'));
    expect(model.calls).toBe(1);
    expect(result.value).toEqual({ action: 'reject', amount: 0 });
    expect(result.repairs).toEqual(['prose-removed', 'candidate-selected']);
    expect(events.of('output.repaired')).toEqual([expect.objectContaining({ repairs: 'prose-removed, candidate-selected', coercions: 0, coercedPaths: '' })]);
  });
});

describe('a truncated or lossy reply is never accepted', () => {
  it('re-asks a truncated value with feedback naming what is missing, and fails when it stays truncated', async () => {
    const { model, builder } = refundAgent(['{"action": "refund", "amount": 5', '{"action": "refund", "amount": [5']);
    const error = await builder
      .build()
      .run('Refund order 42')
      .catch((caught: unknown) => caught);
    expect(ReliabilityFailFastError.isInstance(error)).toBe(true);
    // The second truncated reply fails the same way: the stuck-loop rule stops there.
    expect(model.calls).toBe(2);
    const feedback = lastUserText(model.requests[1]?.messages ?? []);
    expect(feedback).toContain("(truncated): '}' never closes the value opened at position 0");
    expect((error as ReliabilityFailFastError).lastValidationFailure?.defect).toBe('truncated');
  });

  it('re-asks a value with an ellipsis instead of dropping it', async () => {
    const { model, builder } = refundAgent(['{"action": "refund", "amount": 5, ...}', '{"action": "refund", "amount": 5}']);
    const result = asComplete(await builder.build().run('Refund order 42'));
    expect(model.calls).toBe(2);
    expect(lastUserText(model.requests[1]?.messages ?? [])).toContain("'...' stands where properties were left out");
    expect(result.repairs).toEqual([]);
  });
});

describe('lossless repairs and coercions cost no model call', () => {
  it('records each repair and coercion on the result and in an event', async () => {
    const events = recorder('output.repaired');
    const { model, builder } = refundAgent(["```json\n{action: 'Refund', amount: '50', // done\n}\n```"]);
    const result = asComplete(await events.attach(builder).build().run('Refund order 42'));
    expect(model.calls).toBe(1);
    expect(result.value).toEqual({ action: 'refund', amount: 50 });
    expect(result.repairs).toEqual(['fence-stripped', 'unquoted-keys', 'single-quotes', 'comments', 'trailing-comma']);
    expect(result.coercions).toEqual([
      { path: ['action'], kind: 'enum-case', from: 'Refund', to: 'refund' },
      { path: ['amount'], kind: 'number-from-string', from: '50', to: 50 },
    ]);
    expect(events.of('output.repaired')).toEqual([
      expect.objectContaining({ repairs: 'fence-stripped, unquoted-keys, single-quotes, comments, trailing-comma', coercions: 2, coercedPaths: 'action, amount' }),
    ]);
  });

  it('re-asks with coerce: false', async () => {
    const { model, builder } = refundAgent(['{"action": "refund", "amount": "50"}', '{"action": "refund", "amount": 50}'], { coerce: false });
    const result = asComplete(await builder.build().run('Refund order 42'));
    expect(model.calls).toBe(2);
    expect(result.coercions).toEqual([]);
  });

  it('fails at once on a repairable reply with repair: false', async () => {
    const { model, builder } = refundAgent(["{'action': 'refund', 'amount': 5}", '{"action": "refund", "amount": 5}'], { repair: false });
    const result = asComplete(await builder.build().run('Refund order 42'));
    expect(model.calls).toBe(2);
    expect(result.repairs).toEqual([]);
  });
});

describe('30 bad items need one re-ask', () => {
  const Order = Type.Object({ items: Type.Array(Type.Object({ sku: Type.String(), price: Type.Number() })) });
  const good = Array.from({ length: 40 }, (_, index) => ({ sku: `A${index}`, price: index }));
  const bad = good.map((item, index) => (index < 30 ? { ...item, price: `${index} EUR` } : item));

  it('groups the 30 issues into one feedback line and recovers on the next call', async () => {
    const model = scriptedModel([JSON.stringify({ items: bad }), JSON.stringify({ items: good })]);
    const result = asComplete(await Agent.create({ provider: model, model: 'm' }).outputSchema(Order).build().run('Extract the order'));
    expect(model.calls).toBe(2);
    expect(result.value).toEqual({ items: good });
    const feedback = lastUserText(model.requests[1]?.messages ?? []).split('\n');
    expect(feedback[1]).toBe(`- 'items[*].price' (items 0, 1, 2 and 27 more): expected number, got strings like "0 EUR", "1 EUR"`);
    expect(feedback).toHaveLength(3);
  });
});

describe('partial mode (strict: false)', () => {
  it('still retries a reply that does not parse, then returns the value with its issues', async () => {
    const { model, builder } = refundAgent(['Sorry, I cannot answer in JSON.', '{"action": "refund", "amount": "lots"}'], { strict: false });
    const result = asComplete(await builder.build().run('Refund order 42'));
    expect(model.calls).toBe(2);
    expect(result.value).toEqual({ action: 'refund', amount: 'lots' });
    expect(result.issues).toEqual([{ path: ['amount'], pathText: 'amount', kind: 'type', expected: 'number', received: 'lots', message: 'must be number' }]);
  });

  it('fails on an unparseable reply when parse is not in retryOn', async () => {
    const { model, builder } = refundAgent(['not json', '{"action": "refund", "amount": 1}'], { strict: false, retryOn: ['schema'] });
    await expect(builder.build().run('Refund order 42')).rejects.toThrow(ReliabilityFailFastError);
    expect(model.calls).toBe(1);
  });
});
