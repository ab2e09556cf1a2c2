import { costBudget, type PreCheckRule, failoverRule } from '@keel/reliability';
import { describe, expect, it } from 'vitest';
import { AbortedError, Agent, type ModelResponse, ReliabilityFailFastError } from '../index';
import { scriptedModel, asComplete } from '../testing/index';
import { recorder } from '../testing/event-recorder';
import { Refund, VALID, BAD_AMOUNT, BAD_ACTION, refundAgent, requestOf } from './strict-output-fixture';

describe('strict output through the gate', () => {
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
});
