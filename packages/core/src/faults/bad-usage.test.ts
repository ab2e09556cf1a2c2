import { tokenBudget } from '@keel/reliability';
import { describe, expect, it } from 'vitest';
import { Agent, type AgentEvents, ReliabilityFailFastError } from '../index';
import { type ModelProviderV1 } from '@keel/provider';

/**
 * Usage is sanitised at the ledger's entry: a count that is not a finite, non-negative number is
 * recorded as an estimate on the high side (from the request and the answer; 0 for cache counts), a
 * `usage.invalid` event names the call and the field, and budgets keep counting.
 */

const good = { inputTokens: 10, outputTokens: 5, cacheReadTokens: 0, cacheWriteTokens: 0 };

function provider(usages: readonly unknown[]): ModelProviderV1 {
  let call = 0;
  return {
    specificationVersion: 'v1',
    name: 'counting',
    generate: async () => {
      const usage = usages[Math.min(call++, usages.length - 1)];
      return { content: [{ type: 'text', text: 'ok' }], text: 'ok', finishReason: 'stop', usage: usage as never };
    },
  };
}

const badValues: [string, unknown, string][] = [
  ['negative', -500, '-500'],
  ['NaN', Number.NaN, 'NaN'],
  ['Infinity', Number.POSITIVE_INFINITY, 'Infinity'],
  ['1e308 (finite, but two of them add up to Infinity)', 1e308, '1e+308'],
  ['above Number.MAX_SAFE_INTEGER', Number.MAX_SAFE_INTEGER + 1, '9007199254740992'],
  ['a string', '250', 'string'],
  ['null', null, 'null'],
  ['an object', {}, 'object'],
];

describe.each(badValues)('an outputTokens count that is %s', (_name, value, received) => {
  it('is recorded as an estimate and reported once, naming the call and the field', async () => {
    const invalid: AgentEvents['usage.invalid'][] = [];
    const agent = Agent.create({ provider: provider([{ ...good, outputTokens: value }]), model: 'm' })
      .on('usage.invalid', (payload) => void invalid.push(payload))
      .build();
    const result = await agent.run('go');
    // The answer 'ok' is estimated on the high side: at least one token, a whole number.
    expect(result.usage).toMatchObject({ inputTokens: 10, modelCalls: 1 });
    expect(Number.isInteger(result.usage.outputTokens) && result.usage.outputTokens >= 1).toBe(true);
    expect(result.attempts[0]?.usage.outputTokens).toBe(result.usage.outputTokens);
    expect(invalid).toHaveLength(1);
    expect(invalid[0]).toMatchObject({ attempt: 1, purpose: 'step', provider: 'counting', model: 'm', field: 'outputTokens', received });
  });
});

it('a missing usage record is estimated, reported as field "usage"', async () => {
  const invalid: AgentEvents['usage.invalid'][] = [];
  const agent = Agent.create({ provider: provider([undefined]), model: 'm' }).on('usage.invalid', (payload) => void invalid.push(payload)).build();
  const result = await agent.run('go');
  expect(result.usage.totalTokens).toBeGreaterThan(0);
  expect(result.usage).toMatchObject({ cacheReadTokens: 0, cacheWriteTokens: 0 });
  expect(invalid.map((event) => event.field)).toEqual(['usage']);
});

it('a token budget is not bypassed by a NaN count: later valid counts still reach it', async () => {
  // First call NaN, then 15 tokens a call: a NaN total would never reach the cap.
  const usages = [{ ...good, inputTokens: Number.NaN }, good, good, good];
  let calls = 0;
  const model: ModelProviderV1 = {
    specificationVersion: 'v1',
    name: 'looping',
    generate: async () => {
      const usage = usages[Math.min(calls++, usages.length - 1)];
      return { content: [{ type: 'tool-call', id: `c${calls}`, name: 'missing', arguments: {} }], text: '', finishReason: 'tool-calls', usage: usage as never };
    },
  };
  const error = await Agent.create({ provider: model, model: 'm', maxSteps: 50 }).reliability({ preCheck: [tokenBudget(20)] }).build().run('go').catch((thrown: unknown) => thrown);
  expect(ReliabilityFailFastError.isInstance(error)).toBe(true);
  expect((error as ReliabilityFailFastError).kind).toBe('token-budget');
  // The NaN input is estimated (the request's few tokens), then 15 a call: the cap is reached by the
  // third call at the latest. A NaN total never would be.
  expect(calls).toBeLessThanOrEqual(3);
});

it('counts too large to add up exactly never make a total infinite or a cost NaN', async () => {
  const huge = { inputTokens: 1e308, outputTokens: 1e308, cacheReadTokens: Number.MAX_SAFE_INTEGER + 2, cacheWriteTokens: 0 };
  const agent = Agent.create({ provider: provider([huge]), model: 'm', pricing: { m: { inputPerMTok: 1, outputPerMTok: 1 } } }).build();
  const result = await agent.run('go');
  expect(result.usage.cacheReadTokens).toBe(0);
  expect(Number.isSafeInteger(result.usage.totalTokens)).toBe(true);
  expect(result.usage.totalTokens).toBeLessThan(100);
  expect(Number.isFinite(result.usage.costUsd)).toBe(true);
});
