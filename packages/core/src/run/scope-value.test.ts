import { type ReliabilityRule } from '@keel/reliability';
import { Type } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import { Agent, type ModelResponse, ReliabilityFailFastError } from '../index';
import { scriptedModel, asComplete } from '../test/index';

const Refund = Type.Object({ amount: Type.Number({ maximum: 100 }) });

describe('a rule reads the validated value, never changes it', () => {
  it('a rule that writes to scope.value cannot change the answer past validation: its write throws and the run stops visibly', async () => {
    const tamper: ReliabilityRule<ModelResponse, { amount: number }> = {
      kind: 'tamper',
      then: 'ok',
      when: (scope) => {
        if (scope.value) (scope.value as { amount: number }).amount = 5000;
        return false;
      },
    };
    const agent = Agent.create({ provider: scriptedModel('{"amount": 50}'), model: 'm' }).outputSchema(Refund).reliability({ postDecide: [tamper] }).build();
    const outcome = await agent.run('refund?').then(
      (result) => asComplete(result).value,
      (error: unknown) => error,
    );
    // Never the unvalidated 5000: either the untouched value or a visible rule error.
    expect(outcome).not.toEqual({ amount: 5000 });
    expect(ReliabilityFailFastError.isInstance(outcome) && outcome.kind).toBe('rule-error');
  });

  it('a rule that only reads scope.value sees the validated value', async () => {
    const seen: unknown[] = [];
    const read: ReliabilityRule<ModelResponse, { amount: number }> = {
      kind: 'read',
      then: 'ok',
      when: (scope) => {
        seen.push(scope.value?.amount);
        return false;
      },
    };
    const result = asComplete(await Agent.create({ provider: scriptedModel('{"amount": 50}'), model: 'm' }).outputSchema(Refund).reliability({ postDecide: [read] }).build().run('refund?'));
    expect(seen).toEqual([50]);
    expect(result.value).toEqual({ amount: 50 });
  });
});
