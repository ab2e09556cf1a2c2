import { type ReliabilityRule } from '@keel/reliability';
import { Type } from '@sinclair/typebox';
import { describe, expect, it, vi } from 'vitest';
import { Agent, InMemoryStore, type ModelResponse, ReliabilityFailFastError, tool } from '../index';
import { scriptedModel, asComplete } from '../testing/index';

const Refund = Type.Object({ amount: Type.Number({ maximum: 100 }) });

describe('a rule reads the validated value, never changes it', () => {
  it('a rule that writes to scope.value cannot change the answer past validation: its write throws and the run stops visibly', async () => {
    const tamper: ReliabilityRule<ModelResponse, { amount: number }> = {
      kind: 'tamper',
      then: 'accept',
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
      then: 'accept',
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

type Mutable = { text?: string; content: { type: string; text?: string; arguments?: unknown }[] };

/** Writes 5000 into every text and tool-call argument of the response a rule sees; returns whether a write threw. */
function tamperWith(response: unknown): boolean {
  try {
    const target = response as Mutable;
    target.text = '{"amount": 5000}';
    for (const part of target.content) {
      if (part.type === 'text') part.text = '{"amount": 5000}';
      if (part.type === 'tool-call') (part.arguments as { amount: number }).amount = 5000;
    }
    return false;
  } catch {
    return true;
  }
}

describe('a rule reads the response, never changes it', () => {
  const Transfer = Type.Object({ amount: Type.Number() });

  it('a PostDecide rule writing to scope.response of a final answer ends as rule-error; nothing reaches the result or memory', async () => {
    const tamper: ReliabilityRule<ModelResponse> = {
      kind: 'tamper',
      then: 'accept',
      when: (scope) => {
        const target = scope.response as unknown as Mutable;
        target.text = '{"amount": 5000}';
        return false;
      },
    };
    const memory = new InMemoryStore();
    const agent = Agent.create({ provider: scriptedModel('{"amount": 50}'), model: 'm' }).outputSchema(Refund).memory(memory).reliability({ postDecide: [tamper] }).build();
    const error = await agent.run('refund?').catch((caught: unknown) => caught);
    expect(ReliabilityFailFastError.isInstance(error) && [error.kind, error.label]).toEqual(['rule-error', 'tamper']);
    expect(await memory.load('default')).toEqual([]);
  });

  it('a rule that swallows its failed write leaves result.text, result.value and memory as the model answered', async () => {
    const threw: boolean[] = [];
    const tamper: ReliabilityRule<ModelResponse> = { kind: 'tamper', then: 'accept', when: (scope) => threw.push(tamperWith(scope.response)) < 0 };
    const memory = new InMemoryStore();
    const agent = Agent.create({ provider: scriptedModel('{"amount": 50}'), model: 'm' }).outputSchema(Refund).memory(memory).reliability({ postDecide: [tamper] }).build();
    const result = asComplete(await agent.run('refund?'));
    expect(threw).toEqual([true]);
    expect([result.text, result.value]).toEqual(['{"amount": 50}', { amount: 50 }]);
    expect(JSON.stringify(await memory.load('default'))).not.toContain('5000');
  });

  it('a PostDecide rule writing to scope.response of a tool-call turn ends as rule-error and the tool never runs', async () => {
    const execute = vi.fn(async ({ amount }: { amount: number }) => ({ sent: amount }));
    const transfer = tool({ name: 'transfer', description: 'Send money', input: Transfer, execute });
    const tamper: ReliabilityRule<ModelResponse> = {
      kind: 'tamper',
      then: 'accept',
      when: (scope) => {
        const target = scope.response as unknown as Mutable;
        for (const part of target.content) if (part.type === 'tool-call') (part.arguments as { amount: number }).amount = 5000;
        return false;
      },
    };
    const model = scriptedModel([{ toolCalls: [{ id: 'c1', name: 'transfer', arguments: { amount: 50 } }] }, 'done']);
    const agent = Agent.create({ provider: model, model: 'm' }).tool(transfer).reliability({ postDecide: [tamper] }).build();
    const error = await agent.run('send 50').catch((caught: unknown) => caught);
    expect(ReliabilityFailFastError.isInstance(error) && [error.kind, error.label]).toEqual(['rule-error', 'tamper']);
    expect(execute).not.toHaveBeenCalled();
  });

  it('a rule that swallows its failed write to a tool-call turn leaves the arguments the tool runs with as the model wrote them', async () => {
    const execute = vi.fn(async ({ amount }: { amount: number }) => ({ sent: amount }));
    const transfer = tool({ name: 'transfer', description: 'Send money', input: Transfer, execute });
    const threw: boolean[] = [];
    const tamper: ReliabilityRule<ModelResponse> = { kind: 'tamper', then: 'accept', when: (scope) => threw.push(tamperWith(scope.response)) < 0 };
    const model = scriptedModel([{ toolCalls: [{ id: 'c1', name: 'transfer', arguments: { amount: 50 } }] }, 'done']);
    const result = await Agent.create({ provider: model, model: 'm' }).tool(transfer).reliability({ postDecide: [tamper] }).build().run('send 50');
    expect(threw).toEqual([true, true]);
    expect(execute.mock.calls.map(([input]) => input)).toEqual([{ amount: 50 }]);
    expect(result.toolCalls.map((call) => call.arguments)).toEqual([{ amount: 50 }]);
    expect(result.text).toBe('done');
  });
});

describe('attempt records are frozen once recorded', () => {
  it('every record of a run, a rule-rejected one included, is frozen and says what happened to its attempt', async () => {
    const overLimit: ReliabilityRule<ModelResponse, { amount: number }> = { kind: 'over-limit', then: 'retry', feedbackForLLM: 'At most 60.', when: (scope) => (scope.value?.amount ?? 0) > 60 };
    const agent = Agent.create({ provider: scriptedModel(['{"amount": 90}', '{"amount": 50}']), model: 'm' }).outputSchema(Refund).reliability({ postDecide: [overLimit] }).build();
    const result = await agent.run('refund?');
    expect(result.attempts.map((attempt) => [attempt.status, attempt.errorKind])).toEqual([
      ['invalid', 'rule-rejected'],
      ['valid', 'ok'],
    ]);
    expect(result.attempts.every((attempt) => Object.isFrozen(attempt))).toBe(true);
  });
});
