import { afterEach, describe, expect, it, vi } from 'vitest';
import { costBudget, tokenBudget } from '../rules/budget-rules';
import { strictOutputRules } from '../rules/strict-output-rules';
import type { PreCheckRule } from './rule';
import { script, recorder, gate, failFastOf, tokens } from '../testing/run-gate-fixture';

afterEach(() => {
  vi.useRealTimers();
});

describe('runGate: usage and budgets', () => {
  it('sums the usage of every attempt, failed ones included, and shows it to rules', async () => {
    const { call } = script('{"title": {"n": 5}}', '{"title": "ok"}');
    const seen: { phase: string; attempt: number; step: number; run: number }[] = [];
    const observer: PreCheckRule<string> = {
      kind: 'observer',
      then: 'continue',
      when: (scope) => {
        seen.push({ phase: scope.phase, attempt: scope.attempt, step: scope.usage.step.inputTokens, run: scope.usage.run.inputTokens });
        return false;
      },
    };
    const result = await gate({
      call,
      usageOf: () => tokens(10, 3),
      preCheck: [observer],
      postDecide: [observer, ...strictOutputRules()],
    });
    expect(result.usage).toEqual(tokens(20, 6));
    expect(result.attempts.map((record) => record.usage)).toEqual([tokens(10, 3), tokens(10, 3)]);
    expect(seen).toEqual([
      { phase: 'pre-check', attempt: 1, step: 0, run: 0 },
      { phase: 'post-decide', attempt: 1, step: 10, run: 10 },
      { phase: 'pre-check', attempt: 2, step: 10, run: 10 },
      { phase: 'post-decide', attempt: 2, step: 20, run: 20 },
    ]);
  });

  it('keeps the usage of failed attempts on the fail-fast error', async () => {
    const { call } = script('{}', '{"title": {"n": 1}}', '{"title": "x", "colour": "red"}');
    const error = await failFastOf(gate({ call, usageOf: () => tokens(10, 2), postDecide: strictOutputRules({ maxRetries: 2 }) }));
    expect(error.attempts.map((record) => record.usage)).toEqual([tokens(10, 2), tokens(10, 2), tokens(10, 2)]);
  });

  it('records every attempt in the result, failed ones included', async () => {
    const { call } = script('{"title": {"n": 5}}', '{"title": "ok"}');
    const result = await gate({ call, postDecide: strictOutputRules() });
    expect(result.attempts.map((record) => [record.step, record.attempt, record.purpose, record.status])).toEqual([
      [0, 1, 'step', 'invalid'],
      [0, 2, 'step', 'valid'],
    ]);
  });

  it('halts before the next attempt once the cost budget is reached', async () => {
    const { call } = script('{}', '{"title": {"n": 1}}', '{"title": "x", "colour": "red"}', '{"title": "ok"}');
    const { events, onEvent } = recorder();
    const error = await failFastOf(
      gate({
        call,
        usageOf: () => tokens(100, 50, 0.006),
        preCheck: [costBudget({ maxUsd: 0.01 })],
        postDecide: strictOutputRules({ maxRetries: 5 }),
        onEvent,
      }),
    );
    expect(call).toHaveBeenCalledTimes(2);
    expect(error).toMatchObject({ kind: 'cost-budget', phase: 'pre-check', attempt: 3 });
    expect(error.attempts).toHaveLength(2);
    expect(events.at(-1)).toMatchObject({ type: 'reliability.fail-fast', rule: 'cost-budget', phase: 'pre-check' });
  });

  it('only warns in warn mode', async () => {
    const { call } = script('{}', '{"title": {"n": 1}}', '{"title": "ok"}');
    const onWarn = vi.fn();
    const result = await gate({
      call,
      usageOf: () => tokens(100, 50, 0.006),
      preCheck: [costBudget({ maxUsd: 0.01, mode: 'warn', onWarn })],
      postDecide: strictOutputRules({ maxRetries: 5 }),
    });
    expect(result.value).toEqual({ title: 'ok' });
    expect(call).toHaveBeenCalledTimes(3);
    expect(onWarn).toHaveBeenCalledTimes(1);
    expect(onWarn.mock.calls[0]?.[0]).toBeCloseTo(0.012);
  });

  it('halts once the token budget is used', async () => {
    const { call } = script('{}', '{"title": {"n": 1}}', '{"title": "x", "colour": "red"}', '{"title": {"n": 2}}', '{"title": "ok"}');
    const error = await failFastOf(
      gate({ call, usageOf: () => tokens(6, 4), preCheck: [tokenBudget(25)], postDecide: strictOutputRules({ maxRetries: 10 }) }),
    );
    expect(call).toHaveBeenCalledTimes(3);
    expect(error).toMatchObject({ kind: 'token-budget', phase: 'pre-check', attempt: 4 });
  });
});
