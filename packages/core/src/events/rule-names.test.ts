import { Type } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import { Agent, type AgentEvents, type ModelResponse, type ReliabilityRule, tool } from '../index';
import { scriptedModel } from '../testing/index';

const Refund = Type.Object({ action: Type.Union([Type.Literal('refund'), Type.Literal('reject')]), amount: Type.Number() });
type Refund = { action: 'refund' | 'reject'; amount: number };

/** Two business rules, each rejecting a valid answer with feedback. */
const refundLimit: ReliabilityRule<ModelResponse, Refund> = {
  kind: 'refund-limit',
  label: 'refunds above 1000 need a manager',
  then: 'retry',
  when: (scope) => scope.purpose === 'final-answer' && (scope.value?.amount ?? 0) > 1000,
};
const noZeroRefund: ReliabilityRule<ModelResponse, Refund> = {
  kind: 'no-zero-refund',
  label: 'a refund has an amount',
  then: 'retry',
  when: (scope) => scope.purpose === 'final-answer' && scope.value?.action === 'refund' && scope.value.amount === 0,
};

describe('every event a rule decision causes names the rule', () => {
  it('a listener counts rejections per business rule from events alone', async () => {
    const model = scriptedModel([
      '{"action":"refund","amount":1500}',
      '{"action":"refund","amount":0}',
      '{"action":"refund","amount":2000}',
      '{"action":"refund","amount":900}',
    ]);
    const rejections = new Map<string, number>();
    const retries: AgentEvents['reliability.retry'][] = [];
    const agent = Agent.create({ provider: model, model: 'm' })
      .outputSchema(Refund, { maxRetries: 4 })
      .reliability({ postDecide: [refundLimit, noZeroRefund] })
      .on('validation.failed', (event) => {
        if (event.stage === 'rule-check' && event.rule !== undefined) rejections.set(event.rule, (rejections.get(event.rule) ?? 0) + 1);
      })
      .on('reliability.retry', (event) => void retries.push(event))
      .build();
    const result = await agent.run('Refund order 7');
    expect(result.status === 'complete' && result.value).toEqual({ action: 'refund', amount: 900 });
    expect(Object.fromEntries(rejections)).toEqual({ 'refund-limit': 2, 'no-zero-refund': 1 });
    // The retry names the rule it answers as `rejectedBy`; `rule` is the budget rule that let it happen.
    expect(retries.map((event) => event.rejectedBy)).toEqual(['refund-limit', 'no-zero-refund', 'refund-limit']);
  });

  it('a schema retry, its stop, and the fallback that replaces the stop name their rules', async () => {
    const model = scriptedModel(['{"action":"maybe","amount":1}', '{"action":"refund"}']);
    const seen: { name: string; rule: string | undefined }[] = [];
    const agent = Agent.create({ provider: model, model: 'm' })
      .outputSchema(Refund, { maxRetries: 1 })
      .outputFallback({ canned: { action: 'reject', amount: 0 } })
      .on('validation.failed', (event) => void seen.push({ name: 'validation.failed', rule: event.rule }))
      .on('reliability.retry', (event) => void seen.push({ name: 'reliability.retry', rule: event.rule }))
      .on('output.fallback-used', (event) => void seen.push({ name: 'output.fallback-used', rule: event.rule }))
      .build();
    const result = await agent.run('Refund?');
    expect(result.status === 'complete' && result.provenance).toBe('canned');
    expect(seen).toEqual([
      // A schema failure: no rule rejected it, the validator did.
      { name: 'validation.failed', rule: undefined },
      { name: 'reliability.retry', rule: 'schema-retry' },
      { name: 'validation.failed', rule: undefined },
      { name: 'output.fallback-used', rule: 'schema-retry-exhausted' },
    ]);
  });

  it('a tool re-ask and a fail-fast name theirs', async () => {
    const lookup = tool({ name: 'lookup', description: 'looks up', input: Type.Object({ id: Type.Integer() }), execute: ({ id }) => `order ${id}` });
    const model = scriptedModel([{ toolCalls: [{ id: 'c1', name: 'lookup', arguments: { id: 'seven' } }] }, { toolCalls: [{ id: 'c1', name: 'lookup', arguments: { id: 7 } }] }, '{"action":"maybe","amount":1}']);
    const reAsks: AgentEvents['tool.re-ask'][] = [];
    const stops: AgentEvents['reliability.fail-fast'][] = [];
    const agent = Agent.create({ provider: model, model: 'm' })
      .tool(lookup)
      .outputSchema(Refund, { maxRetries: 0 })
      .on('tool.re-ask', (event) => void reAsks.push(event))
      .on('reliability.fail-fast', (event) => void stops.push(event))
      .build();
    await expect(agent.run('Refund order 7')).rejects.toThrow(/schema-retry-exhausted/);
    expect(reAsks.map((event) => [event.rule, event.reAsk])).toEqual([['tool-re-ask', 1]]);
    expect(stops.map((event) => event.rule)).toEqual(['schema-retry-exhausted']);
  });
});
