import { describe, expect, it } from 'vitest';
import { Agent, AgentConfigurationError, ReliabilityFailFastError } from '../index';
import { scriptedModel, asComplete } from '../testing/index';
import { recorder } from '../testing/event-recorder';
import { Refund, type RefundValue, VALID, BAD_AMOUNT, BAD_ACTION, NOT_JSON, refundAgent } from './strict-output-fixture';

describe('strict output through the gate', () => {
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
