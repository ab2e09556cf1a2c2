import { afterEach, describe, expect, it, vi } from 'vitest';
import { failoverRule } from '../rules/failover-rule';
import { strictOutputRules } from '../rules/strict-output-rules';
import type { GateVerdict } from './gate-options';
import type { ReliabilityRule } from './rule';
import type { ReliabilityScope } from './scope';
import { type Task, judge, script, recorder, gate, failFastOf, tokens, rateLimited } from '../testing/run-gate-fixture';

afterEach(() => {
  vi.useRealTimers();
});

describe('runGate: providers and fallback', () => {
  it('moves to the next provider on retry-other', async () => {
    const { call, contexts } = script({ throws: { status: 503 } }, '{"title": "ok"}');
    const { events, onEvent } = recorder();
    const result = await gate({ call, postDecide: [failoverRule()], providerCount: 2, onEvent });
    expect(contexts.map((context) => context.providerIndex)).toEqual([0, 1]);
    expect(result.attempts.map((record) => record.providerIndex)).toEqual([0, 1]);
    expect(events).toContainEqual({ type: 'reliability.retry', attempt: 1, rule: 'provider-failover', errorKind: 'server-error', delayMs: 0, decision: 'retry-other' });
    expect(events.at(-1)).toEqual({ type: 'reliability.recovered', attempt: 2, priorFailures: 1, via: 'retry-other' });
  });

  it('fails fast when a rule decides retry-other and no provider is left', async () => {
    const { call, contexts } = script({ throws: { status: 503 } });
    const always: ReliabilityRule<string> = { kind: 'always-other', then: 'retry-other', when: (scope) => scope.errorKind !== 'ok' };
    const error = await failFastOf(gate({ call, postDecide: [always], providerCount: 2 }));
    expect(call).toHaveBeenCalledTimes(2);
    expect(contexts.map((context) => context.providerIndex)).toEqual([0, 1]);
    expect(error).toMatchObject({ kind: 'always-other', label: 'no other provider is configured', errorKind: 'server-error' });
  });

  it('failoverRule stops matching on the last provider, so later rules decide', async () => {
    const { call, contexts } = script({ throws: { status: 503 } });
    const error = await failFastOf(gate({ call, postDecide: [failoverRule()], providerCount: 2, defaults: false }));
    expect(contexts.map((context) => context.providerIndex)).toEqual([0, 1]);
    expect(error).toMatchObject({ kind: 'unhandled-failure', errorKind: 'server-error' });

    const single = script({ throws: { status: 503 } });
    await failFastOf(gate({ call: single.call, postDecide: [failoverRule()], defaults: false }));
    expect(single.call).toHaveBeenCalledTimes(1);
  });

  it('a crashing validator is counted and fails fast with validator-error, never retried', async () => {
    const { call } = script('{"title": "ok"}');
    const error = await failFastOf(
      gate({
        call,
        usageOf: () => tokens(7, 3),
        validate: () => {
          throw new Error('schema bug');
        },
        postDecide: strictOutputRules(),
      }),
    );
    expect(call).toHaveBeenCalledTimes(1);
    expect(error).toMatchObject({ kind: 'validator-error', errorKind: 'unknown' });
    expect(error.attempts).toHaveLength(1);
    expect(error.attempts[0]?.usage.inputTokens).toBe(7);
  });

  it('checks the attempt cap before waiting: no backoff is slept when no retry may follow', async () => {
    const { call } = script(rateLimited(60_000));
    const { events, onEvent } = recorder();
    const started = performance.now();
    const error = await failFastOf(gate({ call, limits: { maxAttempts: 1 }, onEvent }));
    expect(performance.now() - started).toBeLessThan(1000);
    expect(error.kind).toBe('loop-cap');
    expect(events.some((event) => event.type === 'reliability.retry')).toBe(false);
  });

  it('returns the fallback value via fallback when a rule decides fallback', async () => {
    const { call } = script('{"title": {"n": 5}}');
    const { events, onEvent } = recorder();
    const rule: ReliabilityRule<string> = { kind: 'use-default', then: 'fallback', when: (scope) => scope.errorKind !== 'ok' };
    const fallback = vi.fn(async (scope: ReliabilityScope<string>) => ({ title: `default after ${scope.attempt}` }));
    const result = await gate({ call, postDecide: [rule], fallback, onEvent });
    expect(result.via).toBe('fallback');
    expect(result.value).toEqual({ title: 'default after 1' });
    expect(result).not.toHaveProperty('response');
    expect(result.attempts).toHaveLength(1);
    expect(events.at(-1)).toEqual({ type: 'reliability.recovered', attempt: 1, priorFailures: 0, via: 'fallback' });
  });

  it('fails fast when a rule decides fallback but none is configured', async () => {
    const { call } = script('{"title": {"n": 5}}');
    const rule: ReliabilityRule<string> = { kind: 'use-default', then: 'fallback', when: (scope) => scope.errorKind !== 'ok' };
    const error = await failFastOf(gate({ call, postDecide: [rule] }));
    expect(error.kind).toBe('use-default');
  });

  it('fails fast with fallback-failed (the cause reduced) when the fallback throws', async () => {
    const { call } = script('{"title": {"n": 5}}');
    const rule: ReliabilityRule<string> = { kind: 'use-default', then: 'fallback', when: (scope) => scope.errorKind !== 'ok' };
    const error = await failFastOf(gate({ call, postDecide: [rule], fallback: async () => Promise.reject(new Error('cache down')) }));
    expect(error).toMatchObject({ kind: 'fallback-failed', label: 'use-default', errorKind: 'schema-fail' });
    expect(error.cause).toEqual({ name: 'Error', message: 'cache down' });
  });

  it("an 'ok' rule accepting invalid output reports its issues and gives the parsed value", async () => {
    const { call } = script('{"title": {"n": 5}}');
    const accept: ReliabilityRule<string> = { kind: 'accept-anyway', then: 'accept', when: () => true };
    const result = await gate({ call, postDecide: [accept], validate: async (text) => ({ ...(await judge(text)), partialValue: JSON.parse(text) }) as GateVerdict<Task> });
    expect(result.value).toEqual({ title: { n: 5 } });
    expect(result.acceptedIssues?.map((issue) => issue.kind)).toEqual(['type']);
  });
});
