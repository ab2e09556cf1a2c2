import { describe, expect, it } from 'vitest';
import { ReliabilityFailFastError } from '../index';
import { asComplete } from '../testing/index';
import { recorder } from '../testing/event-recorder';
import { VALID, BAD_AMOUNT, AMOUNT_LINE, refundAgent, requestOf, runError } from './strict-output-fixture';

describe('strict output through the gate', () => {
  it('sends the default feedback and reports reliability.feedback-error when the template throws', async () => {
    const events = recorder('reliability.feedback-error');
    const { model, builder } = refundAgent([BAD_AMOUNT, VALID], {
      feedbackForLLM: () => {
        throw new Error('template exploded');
      },
    });
    const result = asComplete(await events.attach(builder).build().run('Refund order 42'));

    expect(result.value).toEqual({ action: 'refund', amount: 50 });
    expect(model.calls).toBe(2);
    expect(requestOf(model, 1).messages[2]?.content).toContain(AMOUNT_LINE);
    const errors = events.of('reliability.feedback-error');
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ source: 'template', message: 'template exploded' });
  });

  it('sends the text a custom feedback template writes', async () => {
    const { model, builder } = refundAgent([BAD_AMOUNT, VALID], {
      feedbackForLLM: (input) => `Attempt ${input.attempt} failed at ${input.issues.map((issue) => issue.pathText).join(', ')}. Previous: ${input.previousOutput}`,
    });
    await builder.build().run('Refund order 42');

    expect(requestOf(model, 1).messages[2]).toEqual({ role: 'user', content: `Attempt 1 failed at amount. Previous: ${BAD_AMOUNT}`, ephemeral: true });
  });

  it('sends a fixed feedback string, and gives templates the scope rules see', async () => {
    const fixed = refundAgent([BAD_AMOUNT, VALID], { feedbackForLLM: 'Amounts are numbers.' });
    await fixed.builder.build().run('Refund order 42');
    expect(requestOf(fixed.model, 1).messages[2]?.content).toBe('Amounts are numbers.');

    const seen: { errorKind: string; validationErrorHistory: readonly string[] }[] = [];
    const templated = refundAgent([BAD_AMOUNT, VALID], {
      feedbackForLLM: ({ scope }) => {
        seen.push({ errorKind: scope.errorKind, validationErrorHistory: [...scope.validationErrorHistory] });
        return 'again';
      },
    });
    await templated.builder.build().run('Refund order 42');
    expect(seen).toEqual([{ errorKind: 'schema-fail', validationErrorHistory: ['schema-validate|amount|type'] }]);
  });

  it('appends the retryHint to the feedback', async () => {
    const { model, builder } = refundAgent([BAD_AMOUNT, VALID], { retryHint: 'Amounts are plain numbers in USD.' });
    await builder.build().run('Refund order 42');

    const feedback = requestOf(model, 1).messages[2]?.content;
    expect(feedback).toContain(AMOUNT_LINE);
    expect(feedback).toContain('Amounts are plain numbers in USD.');
  });

  it('accepts a fenced json answer with a local repair and no retry', async () => {
    const { model, builder } = refundAgent(['```json\n{"action":"reject","amount":0}\n```']);
    const result = asComplete(await builder.build().run('Refund order 42'));

    expect(model.calls).toBe(1);
    expect(result.value).toEqual({ action: 'reject', amount: 0 });
    expect(result.repairs).toContain('fence-stripped');
    expect(result.attempts).toHaveLength(1);
  });

  it('returns the parsed value with its issues and no retry when strict is false', async () => {
    const { model, builder } = refundAgent([BAD_AMOUNT, VALID], { strict: false });
    const result = asComplete(await builder.build().run('Refund order 42'));

    expect(model.calls).toBe(1);
    expect(result.value).toEqual({ action: 'refund', amount: 'USD 50' });
    expect(result.issues).toHaveLength(1);
    expect(result.issues[0]).toMatchObject({ path: ['amount'], pathText: 'amount', kind: 'type' });
  });

  it('never retries with maxAttempts 1', async () => {
    const { model, builder } = refundAgent([BAD_AMOUNT, VALID], { maxRetries: 0 });
    const error = await runError(builder);

    expect(model.calls).toBe(1);
    expect(ReliabilityFailFastError.isInstance(error)).toBe(true);
    expect((error as ReliabilityFailFastError).kind).toBe('schema-retry-exhausted');
  });

  it('retries without feedback messages when feedback is false', async () => {
    const { model, builder } = refundAgent([BAD_AMOUNT, VALID], { feedback: false });
    const result = asComplete(await builder.build().run('Refund order 42'));

    expect(model.calls).toBe(2);
    expect(result.value).toEqual({ action: 'refund', amount: 50 });
    expect(requestOf(model, 1).messages).toEqual([{ role: 'user', content: 'Refund order 42' }]);
    expect(result.attempts[1]?.feedbackSent).toBe(false);
  });
});
