import { type Static, Type } from '@sinclair/typebox';
import { describe, expect, expectTypeOf, it } from 'vitest';
// The recipe's import lines, pointed at this repository; everything below them is the recipe as written.
import { Agent, ReliabilityFailFastError } from '../index';
import { defaultStuckLoopRule, lastNValidationErrorsMatch, strictOutputRules } from '@keel/reliability';
import { type Script, scriptedModel } from '../testing/index';

const Refund = Type.Object({
  orderId: Type.String(),
  action: Type.Union([Type.Literal('refund'), Type.Literal('reject')]),
  amount: Type.Number({ minimum: 0 }),
});
type Refund = Static<typeof Refund>;

const VALID = '{"orderId": "42", "action": "refund", "amount": 50}';
const AMOUNT_AS_TEXT = '{"orderId": "42", "action": "refund", "amount": "USD 50"}';
const AMOUNT_AS_TEXT_AGAIN = '{"orderId": "42", "action": "refund", "amount": "fifty"}';
const BAD_ACTION = '{"orderId": "42", "action": "escalate", "amount": 50}';
const NO_ORDER = '{"action": "refund", "amount": 50}';
const NEGATIVE = '{"orderId": "42", "action": "refund", "amount": -5}';

/** The seed's strict-output recipe: stuck-loop stop first, a custom predicate, then strictOutputRules(3). */
function refundAgent(script: Script) {
  const agent = Agent.create({ provider: scriptedModel(script), model: 'claude-sonnet-4-6' })
    .system('You decide refunds. Answer with the JSON object only.')
    .outputSchema(Refund)
    .reliability({
      postDecide: [
        defaultStuckLoopRule,
        { when: (s) => lastNValidationErrorsMatch(s, 3), then: 'fail-fast', kind: 'same-error-3x', label: 'three identical validation errors' },
        ...strictOutputRules(3),
      ],
    })
    .build();

  const metrics = { validationFailures: 0, retries: 0, recovered: 0, failFast: [] as string[] };
  agent.on('validation.failed', () => void metrics.validationFailures++);
  agent.on('reliability.retry', () => void metrics.retries++);
  agent.on('reliability.recovered', () => void metrics.recovered++);
  agent.on('reliability.fail-fast', (event) => void metrics.failFast.push(event.rule));
  return { agent, metrics };
}

describe('the seed strict-output recipe', () => {
  it('runs as written: feedback retry, then a typed value from runTyped<Refund>({ message })', async () => {
    const { agent, metrics } = refundAgent([AMOUNT_AS_TEXT, VALID]);
    const refund = await agent.runTyped<Refund>({ message: 'Refund order 42: the parcel arrived crushed.' });

    expectTypeOf(refund).toEqualTypeOf<Refund>();
    expect(refund).toEqual({ orderId: '42', action: 'refund', amount: 50 });
    expect(metrics).toEqual({ validationFailures: 1, retries: 1, recovered: 1, failFast: [] });
  });

  it('stops at the second identical failure with defaultStuckLoopRule, a rule value first in the list', async () => {
    const { agent, metrics } = refundAgent([AMOUNT_AS_TEXT, AMOUNT_AS_TEXT_AGAIN, VALID]);
    const error = await agent.runTyped<Refund>({ message: 'Refund order 42.' }).catch((caught: unknown) => caught);

    expect(ReliabilityFailFastError.isInstance(error) && [error.kind, error.attempt]).toEqual(['schema-stuck-loop', 2]);
    expect(metrics.failFast).toEqual(['schema-stuck-loop']);
  });

  it('gives strictOutputRules(3) three feedback retries, then fails fast as exhausted', async () => {
    const { agent, metrics } = refundAgent([AMOUNT_AS_TEXT, BAD_ACTION, NO_ORDER, NEGATIVE, VALID]);
    const error = await agent.runTyped<Refund>({ message: 'Refund order 42.' }).catch((caught: unknown) => caught);

    expect(ReliabilityFailFastError.isInstance(error) && [error.kind, error.attempts.length]).toEqual(['schema-retry-exhausted', 4]);
    expect(metrics).toMatchObject({ validationFailures: 4, retries: 3 });
  });

  it('takes strictOutputRules(3) as the whole postDecide list too', async () => {
    const agent = Agent.create({ provider: scriptedModel([AMOUNT_AS_TEXT, VALID]), model: 'claude-sonnet-4-6' })
      .outputSchema(Refund)
      .reliability({ postDecide: strictOutputRules(3) })
      .build();
    expect(await agent.runTyped<Refund>({ message: 'Refund order 42.' })).toEqual({ orderId: '42', action: 'refund', amount: 50 });
  });
});

describe('agent.on() on a built agent', () => {
  it('returns an unsubscribe function; later runs are no longer heard', async () => {
    const agent = Agent.create({ provider: scriptedModel(['one', 'two']), model: 'm' }).build();
    const ends: string[] = [];
    const off = agent.on('run.end', (event) => void ends.push(event.status));
    await agent.run('first');
    off();
    off();
    await agent.run({ message: 'second' });
    expect(ends).toEqual(['complete']);
  });

  it('keeps a listener added twice until each registration is removed', async () => {
    const agent = Agent.create({ provider: scriptedModel(['a', 'b', 'c']), model: 'm' }).build();
    let calls = 0;
    const listener = () => void calls++;
    const offFirst = agent.on('run.start', listener);
    agent.on('run.start', listener);
    await agent.run('a');
    offFirst();
    await agent.run('b');
    expect(calls).toBe(3);
  });

  it('isolates a throwing listener like a builder listener: reported, the run goes on', async () => {
    const agent = Agent.create({ provider: scriptedModel('fine'), model: 'm' }).build();
    const reported: string[] = [];
    agent.on('step.start', () => {
      throw new Error('metrics sink down');
    });
    agent.on('listener.error', (event) => void reported.push(`${event.event}: ${event.message}`));
    expect((await agent.run('hi')).text).toBe('fine');
    expect(reported).toEqual(['step.start: metrics sink down']);
  });
});

describe('run input', () => {
  it('takes { message } like a string, and refuses anything else with a clear error', async () => {
    const model = scriptedModel(['a', 'b']);
    const agent = Agent.create({ provider: model, model: 'm' }).build();
    await agent.run({ message: 'hello' });
    await agent.run('hello');
    expect(model.requests[0]?.messages).toEqual(model.requests[1]?.messages);
    await expect(agent.run({ text: 'hello' } as never)).rejects.toThrow(/run\.input/);
  });
});
