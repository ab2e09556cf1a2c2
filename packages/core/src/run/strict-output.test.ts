import { costBudget, type PreCheckRule, failoverRule } from '@keel/reliability';
import { Type } from '@sinclair/typebox';
import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  AbortedError,
  Agent,
  AgentConfigurationError,
  InMemoryStore,
  type Message,
  type ModelResponse,
  ReliabilityFailFastError,
  tool,
} from '../index';
import { type Script, scriptedModel, asComplete } from '../testing/index';
import { recorder } from '../testing/event-recorder';

const Refund = Type.Object({
  action: Type.Union([Type.Literal('refund'), Type.Literal('reject')]),
  amount: Type.Number(),
});

interface RefundValue {
  action: 'refund' | 'reject';
  amount: number;
}

const VALID = '{"action":"refund","amount":50}';
const BAD_AMOUNT = '{"action":"refund","amount":"USD 50"}';
const BAD_ACTION = '{"action":"maybe","amount":50}';
const NOT_JSON = 'I think we should refund fifty dollars.';
const AMOUNT_LINE = `- 'amount': expected number, got string "USD 50"`;

function refundAgent(script: Script, options: Parameters<ReturnType<typeof Agent.create>['outputSchema']>[1] = {}) {
  const model = scriptedModel(script);
  const builder = Agent.create({ provider: model, model: 'm' }).outputSchema(Refund, options);
  return { model, builder };
}

const requestOf = (model: { readonly requests: readonly { readonly messages: readonly Message[] }[] }, index: number) => {
  const request = model.requests[index];
  if (!request) throw new Error(`no request #${index}`);
  return request;
};

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
    expect(second?.status).toBe('ok');
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
    const error = await builder
      .build()
      .run('Refund order 42')
      .catch((caught: unknown) => caught);

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
      [1, 'ok'],
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
    expect(result.attempts.map((attempt) => attempt.status)).toEqual(['ok', 'ok']);
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

  it('runs PreCheck rules before every attempt', async () => {
    const seen: number[] = [];
    const counting: PreCheckRule<ModelResponse> = {
      kind: 'count-attempts',
      then: 'continue',
      when: (scope) => {
        seen.push(scope.attempt);
        return false;
      },
    };
    const { model, builder } = refundAgent([BAD_AMOUNT, BAD_ACTION, VALID]);
    await builder.reliability({ preCheck: [counting] }).build().run('Refund order 42');

    expect(model.calls).toBe(3);
    expect(seen).toEqual([1, 2, 3]);
  });

  it('stops the run when a cost budget PreCheck halts', async () => {
    const model = scriptedModel([{ text: BAD_AMOUNT, usage: { inputTokens: 100, outputTokens: 10 } }, VALID]);
    const agent = Agent.create({ provider: model, model: 'm', pricing: { m: { inputPerMTok: 10_000, outputPerMTok: 10_000 } } })
      .outputSchema(Refund)
      .reliability({ preCheck: [costBudget({ maxUsd: 0.5 })] })
      .build();
    const error = await agent.run('Refund order 42').catch((caught: unknown) => caught);

    expect(model.calls).toBe(1);
    expect(ReliabilityFailFastError.isInstance(error)).toBe(true);
    expect((error as ReliabilityFailFastError).kind).toBe('cost-budget');
    expect((error as ReliabilityFailFastError).phase).toBe('pre-check');
    expect((error as ReliabilityFailFastError).attempts).toHaveLength(1);
  });

  it('waits out a rate limit, capped by maxRetryAfterMs, then succeeds', async () => {
    const rateLimited = Object.assign(new Error('429 Too Many Requests'), { errorKind: 'rate-limit' as const, retryAfterMs: 60_000 });
    const events = recorder('reliability.retry');
    const model = scriptedModel([rateLimited, VALID]);
    const agent = events.attach(Agent.create({ provider: model, model: 'm', maxRetryAfterMs: 30 }).outputSchema(Refund)).build();
    const result = asComplete(await agent.run('Refund order 42'));

    expect(result.value).toEqual({ action: 'refund', amount: 50 });
    expect(model.calls).toBe(2);
    const retries = events.of('reliability.retry');
    expect(retries).toHaveLength(1);
    expect(retries[0]).toMatchObject({ errorKind: 'rate-limit', delayMs: 30, decision: 'retry' });
    expect(result.attempts.map((attempt) => attempt.errorKind)).toEqual(['rate-limit', 'ok']);
    // A rate limit is not a validation failure: the retry carries no feedback.
    expect(requestOf(model, 1).messages).toEqual(requestOf(model, 0).messages);
  });

  it('rejects with AbortedError when aborted during a Retry-After wait', async () => {
    const rateLimited = Object.assign(new Error('429 Too Many Requests'), { errorKind: 'rate-limit' as const, retryAfterMs: 60_000 });
    const model = scriptedModel([rateLimited, VALID]);
    const agent = Agent.create({ provider: model, model: 'm', maxRetryAfterMs: 60_000 }).outputSchema(Refund).build();
    const controller = new AbortController();
    const running = agent.run('Refund order 42', { signal: controller.signal });
    setTimeout(() => controller.abort(), 20);

    const error = await running.catch((caught: unknown) => caught);
    expect(AbortedError.isInstance(error)).toBe(true);
    expect(model.calls).toBe(1);
  }, 2_000);

  it('moves to the fallback provider and its model on retry-other', async () => {
    const serverError = Object.assign(new Error('500 Internal Server Error'), { errorKind: 'server-error' as const });
    const primary = scriptedModel([serverError], { name: 'a' });
    const backup = scriptedModel([VALID], { name: 'b' });
    const agent = Agent.create({ provider: primary, model: 'm1', failover: [{ provider: backup, model: 'm2' }] })
      .outputSchema(Refund)
      .reliability({ postDecide: [failoverRule()] })
      .build();
    const result = asComplete(await agent.run('Refund order 42'));

    expect(primary.calls).toBe(1);
    expect(backup.calls).toBe(1);
    expect(backup.requests[0]?.model).toBe('m2');
    expect(result.value).toEqual({ action: 'refund', amount: 50 });
    expect(result.attempts.map((attempt) => attempt.providerIndex)).toEqual([0, 1]);
  });

  describe('output fallback tiers', () => {
    it('uses the fallback function when the model never gives valid output', async () => {
      const events = recorder('output.fallback-used');
      const { model, builder } = refundAgent([BAD_AMOUNT, BAD_ACTION, NOT_JSON]);
      const agent = events.attach(builder.outputFallback({ fallback: () => ({ action: 'reject', amount: 0 }) })).build();
      const result = asComplete(await agent.run('Refund order 42'));

      expect(model.calls).toBe(3);
      expect(result.provenance).toBe('fallback');
      expect(result.value).toEqual({ action: 'reject', amount: 0 });
      const used = events.of('output.fallback-used');
      expect(used).toHaveLength(1);
      expect(used[0]?.tier).toBe('fallback');
    });

    it('falls to the canned value when the fallback value is invalid', async () => {
      const events = recorder('output.fallback-used');
      const { builder } = refundAgent(BAD_AMOUNT);
      const agent = events
        .attach(
          builder.outputFallback({
            fallback: () => ({ action: 'escalate', amount: 0 }) as unknown as RefundValue,
            canned: { action: 'reject', amount: 0 },
          }),
        )
        .build();
      const result = asComplete(await agent.run('Refund order 42'));

      expect(result.provenance).toBe('canned');
      expect(result.value).toEqual({ action: 'reject', amount: 0 });
      expect(events.of('output.fallback-used').map((event) => event.tier)).toEqual(['canned']);
    });

    it('answers a rule that decides fallback with a tier, given the latest validation failure', async () => {
      const seen: string[] = [];
      const { model, builder } = refundAgent([BAD_AMOUNT, VALID]);
      const agent = builder
        .outputFallback({
          fallback: (failure) => {
            seen.push(failure.issues.map((issue) => issue.pathText).join(','));
            return { action: 'reject', amount: 0 };
          },
        })
        .reliability({ postDecide: [{ kind: 'give-up-at-once', then: 'fallback', when: (scope) => scope.errorKind === 'schema-fail' }] })
        .build();
      const result = await agent.run('Refund order 42');

      expect(model.calls).toBe(1);
      expect(result).toMatchObject({ provenance: 'fallback', value: { action: 'reject', amount: 0 } });
      expect(seen).toEqual(['amount']);
    });

    it('stops with fallback-failed when a rule decides fallback and no tier produces a value', async () => {
      const events = recorder('reliability.recovered');
      const { builder } = refundAgent([BAD_AMOUNT, VALID]);
      const agent = events
        .attach(
          builder
            .outputFallback({ fallback: () => ({ action: 'escalate', amount: 0 }) as unknown as RefundValue })
            .reliability({ postDecide: [{ kind: 'give-up-at-once', then: 'fallback', when: (scope) => scope.errorKind === 'schema-fail' }] }),
        )
        .build();
      const error = await agent.run('Refund order 42').catch((caught: unknown) => caught);

      expect(ReliabilityFailFastError.isInstance(error) && [error.kind, error.label]).toEqual(['fallback-failed', 'give-up-at-once']);
      expect(events.of('reliability.recovered')).toHaveLength(0);
    });

    it('refuses to build with a canned value that fails the schema', () => {
      const { builder } = refundAgent(VALID);
      const build = () => builder.outputFallback({ canned: { action: 'refund', amount: '50' } as unknown as RefundValue }).build();
      expect(build).toThrow(AgentConfigurationError);
      expect(build).toThrow(/canned/);
    });
  });

  it('counts every attempt in usage, the result and run.end', async () => {
    const events = recorder('run.end');
    const { builder } = refundAgent([
      { text: BAD_AMOUNT, usage: { inputTokens: 100, outputTokens: 10 } },
      { text: BAD_ACTION, usage: { inputTokens: 200, outputTokens: 20 } },
      { text: VALID, usage: { inputTokens: 300, outputTokens: 30 } },
    ]);
    const result = await events.attach(builder).build().run('Refund order 42');

    expect(result.attempts).toHaveLength(3);
    expect(result.usage.modelCalls).toBe(result.attempts.length);
    expect(result.usage.inputTokens).toBe(600);
    expect(result.usage.outputTokens).toBe(60);
    const ends = events.of('run.end');
    expect(ends).toHaveLength(1);
    expect(ends[0]).toMatchObject({ status: 'ok', modelCalls: 3, inputTokens: 600, outputTokens: 60 });
  });

  it('counts failed attempts in run.end when the run fails', async () => {
    const events = recorder('run.end');
    const { builder } = refundAgent({ text: BAD_AMOUNT, usage: { inputTokens: 100, outputTokens: 10 } });
    await expect(events.attach(builder).build().run('Refund order 42')).rejects.toThrow(ReliabilityFailFastError);

    expect(events.of('run.end')[0]).toMatchObject({ status: 'error', modelCalls: 2, inputTokens: 200, outputTokens: 20 });
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
    const error = await builder
      .build()
      .run('Refund order 42')
      .catch((caught: unknown) => caught);

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

  it('continues an answer cut at the token limit (finish reason length), without schema feedback', async () => {
    const events = recorder('validation.failed');
    const { model, builder } = refundAgent([{ text: '{"action":"refund","amo', finishReason: 'length' }, 'unt":50}']);
    const result = asComplete(await events.attach(builder).build().run('Refund order 42'));

    expect(model.calls).toBe(2);
    expect(model.requests[1]?.continueFrom).toBe('{"action":"refund","amo');
    expect(result.value).toEqual({ action: 'refund', amount: 50 });
    expect(events.of('validation.failed')).toHaveLength(0);
  });

  it('fails fast with errorKind truncated on finish reason length when continuation is off', async () => {
    const { model, builder } = refundAgent([{ text: '{"action":"refund","amo', finishReason: 'length' }, VALID], { continuation: false });
    const error = await builder
      .build()
      .run('Refund order 42')
      .catch((caught: unknown) => caught);

    expect(model.calls).toBe(1);
    expect(ReliabilityFailFastError.isInstance(error)).toBe(true);
    expect((error as ReliabilityFailFastError).errorKind).toBe('truncated');
  });
});

describe('failures that must surface, not degrade', () => {
  it('a rule that throws fails the run; it never hands out the canned fallback', async () => {
    const model = scriptedModel(['{"action":"refund","amount":"USD 50"}', '{"action":"refund","amount":50}']);
    const agent = Agent.create({ provider: model, model: 'm' })
      .outputSchema(Refund)
      .outputFallback({ canned: { action: 'reject', amount: 0 } })
      .reliability({
        postDecide: [
          {
            kind: 'buggy',
            then: 'retry',
            when: (scope) => {
              if (scope.errorKind === 'schema-fail') throw new Error('rule bug');
              return false;
            },
          },
        ],
      })
      .build();
    const error = await agent.run('Refund?').catch((caught: unknown) => caught);
    expect(ReliabilityFailFastError.isInstance(error) && error.kind).toBe('rule-error');
  });
});
