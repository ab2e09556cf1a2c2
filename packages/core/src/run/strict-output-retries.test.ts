import { Type } from '@sinclair/typebox';
import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  Agent,
  InMemoryStore,
  type Message,
  ReliabilityFailFastError,
  tool,
} from '../index';
import { scriptedModel, asComplete } from '../testing/index';
import { recorder } from '../testing/event-recorder';
import { Refund, type RefundValue, VALID, BAD_AMOUNT, BAD_ACTION, NOT_JSON, AMOUNT_LINE, refundAgent, requestOf, runError } from './strict-output-fixture';

describe('strict output through the gate', () => {
  it('retries once after an invalid answer and returns the second answer as the value', async () => {
    const { model, builder } = refundAgent([BAD_AMOUNT, VALID]);
    const result = asComplete(await builder.build().run('Refund order 42'));

    expect(model.calls).toBe(2);
    expect(result.value).toEqual({ action: 'refund', amount: 50 });
    expect(result.provenance).toBe('model');
    expect(result.attempts).toHaveLength(2);
    const [first, second] = result.attempts;
    expect(first?.status).toBe('invalid');
    expect(first?.issues.length).toBeGreaterThan(0);
    expect(first?.issues[0]?.path).toEqual(['amount']);
    expect(first?.feedbackSent).toBe(false);
    expect(second?.status).toBe('valid');
    expect(second?.feedbackSent).toBe(true);
  });

  it('retries once after an answer that is not JSON, with parse feedback', async () => {
    const { model, builder } = refundAgent([NOT_JSON, VALID]);
    const result = asComplete(await builder.build().run('Refund order 42'));

    expect(model.calls).toBe(2);
    expect(result.value).toEqual({ action: 'refund', amount: 50 });
    expect(result.attempts.map((attempt) => attempt.errorKind)).toEqual(['parse-fail', 'ok']);
    expect(requestOf(model, 1).messages[2]?.content).toContain('could not be parsed as JSON');
  });

  it('runTyped returns the validated value, typed from the schema', async () => {
    const { model, builder } = refundAgent([BAD_AMOUNT, VALID]);
    const value = await builder.build().runTyped('Refund order 42');
    expectTypeOf(value).toEqualTypeOf<RefundValue>();
    expect(value).toEqual({ action: 'refund', amount: 50 });
    expect(model.calls).toBe(2);
  });

  it('sends the retry as kept context plus the rejected output and the feedback, both ephemeral', async () => {
    const { model, builder } = refundAgent([BAD_AMOUNT, VALID]);
    await builder.build().run('Refund order 42');

    expect(requestOf(model, 0).messages).toEqual([{ role: 'user', content: 'Refund order 42' }]);
    const retry = requestOf(model, 1).messages;
    expect(retry).toHaveLength(3);
    expect(retry[0]).toEqual({ role: 'user', content: 'Refund order 42' });
    expect(retry[1]).toEqual({ role: 'assistant', content: [{ type: 'text', text: BAD_AMOUNT }], ephemeral: true });
    expect(retry[2]).toMatchObject({ role: 'user', ephemeral: true });
    const feedback = retry[2]?.content;
    expect(typeof feedback).toBe('string');
    expect(feedback).toContain(AMOUNT_LINE);
  });

  it('sends only the latest failed attempt and its feedback on attempt 3', async () => {
    const { model, builder } = refundAgent([BAD_AMOUNT, BAD_ACTION, VALID]);
    const result = asComplete(await builder.build().run('Refund order 42'));

    expect(model.calls).toBe(3);
    expect(result.value).toEqual({ action: 'refund', amount: 50 });
    const third = requestOf(model, 2).messages;
    expect(third).toHaveLength(3);
    expect(third[1]).toEqual({ role: 'assistant', content: [{ type: 'text', text: BAD_ACTION }], ephemeral: true });
    expect(third[2]?.content).toContain("- 'action'");
    expect(JSON.stringify(third)).not.toContain('USD 50');
  });
});

describe('strict output through the gate', () => {
  it('stops after maxAttempts with schema-retry-exhausted when every answer is wrong in a new way', async () => {
    const { model, builder } = refundAgent([BAD_AMOUNT, BAD_ACTION, NOT_JSON, VALID], { maxRetries: 2 });
    const error = await builder
      .build()
      .run('Refund order 42')
      .then(
        () => undefined,
        (caught: unknown) => caught,
      );

    expect(model.calls).toBe(3);
    expect(ReliabilityFailFastError.isInstance(error)).toBe(true);
    const failFast = error as ReliabilityFailFastError;
    expect(failFast.kind).toBe('schema-retry-exhausted');
    expect(failFast.attempts).toHaveLength(3);
    expect(failFast.attempts.map((attempt) => attempt.status)).toEqual(['invalid', 'invalid', 'invalid']);
  });

  it('stops after 2 calls with schema-stuck-loop when the model repeats the same bad answer', async () => {
    const { model, builder } = refundAgent(BAD_AMOUNT, { maxRetries: 4 });
    const error = await runError(builder);

    expect(model.calls).toBe(2);
    expect(ReliabilityFailFastError.isInstance(error)).toBe(true);
    expect((error as ReliabilityFailFastError).kind).toBe('schema-stuck-loop');
    expect((error as ReliabilityFailFastError).attempts).toHaveLength(2);
  });

  it("a fail-fast error carries the whole run's attempts, earlier steps included", async () => {
    const lookup = tool({ name: 'lookup_order', description: 'Looks up an order', input: Type.Object({ id: Type.String() }), execute: () => ({ total: 50 }) });
    const model = scriptedModel([{ toolCalls: [{ name: 'lookup_order', arguments: { id: '42' } }] }, BAD_AMOUNT, BAD_AMOUNT]);
    const agent = Agent.create({ provider: model, model: 'm' }).tool(lookup).outputSchema(Refund).build();
    const error = await agent.run('Refund order 42').catch((caught: unknown) => caught);
    expect(ReliabilityFailFastError.isInstance(error)).toBe(true);
    const attempts = (error as ReliabilityFailFastError).attempts;
    expect(attempts.map((attempt) => [attempt.step, attempt.status])).toEqual([
      [1, 'valid'],
      [2, 'invalid'],
      [2, 'invalid'],
    ]);
  });

  it('never validates a tool-call turn', async () => {
    const lookup = tool({ name: 'lookup_order', description: 'Looks up an order', input: Type.Object({ id: Type.String() }), execute: () => ({ total: 50 }) });
    const events = recorder('validation.failed');
    const model = scriptedModel([{ text: 'Let me look the order up first.', toolCalls: [{ name: 'lookup_order', arguments: { id: '42' } }] }, VALID]);
    const agent = events.attach(Agent.create({ provider: model, model: 'm' }).outputSchema(Refund).tool(lookup)).build();
    const result = asComplete(await agent.run('Refund order 42'));

    expect(model.calls).toBe(2);
    expect(events.of('validation.failed')).toHaveLength(0);
    expect(result.attempts.map((attempt) => attempt.status)).toEqual(['valid', 'valid']);
    expect(result.value).toEqual({ action: 'refund', amount: 50 });
  });

  it('keeps rejected output and feedback out of memory and result.messages, and leaves the input untouched', async () => {
    const store = new InMemoryStore();
    const { builder } = refundAgent([BAD_AMOUNT, VALID]);
    const input: Message[] = [
      { role: 'user', content: 'Order 42 arrived broken.' },
      { role: 'assistant', content: [{ type: 'text', text: 'Sorry to hear that.' }] },
      { role: 'user', content: 'Refund it, please.' },
    ];
    const before = structuredClone(input);
    const result = await builder.memory(store).build().run(input);

    expect(input).toEqual(before);
    expect(result.messages.some((message) => message.ephemeral)).toBe(false);
    expect(result.messages).toEqual([...before, { role: 'assistant', content: [{ type: 'text', text: VALID }] }]);
    const kept = await store.load('default');
    expect(kept).toEqual(result.messages);
    const text = JSON.stringify(kept);
    expect(text).not.toContain('USD 50');
    expect(text).not.toContain('did not match the required schema');
  });
});
