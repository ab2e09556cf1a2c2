import { afterEach, describe, expect, it, vi } from 'vitest';
import { AbortedError } from '../errors/aborted-error';
import { strictOutputRules } from '../rules/strict-output-rules';
import type { PreCheckRule, ReliabilityRule } from './rule';
import type { ReliabilityScope } from './scope';
import { script, recorder, gate, failFastOf } from '../testing/run-gate-fixture';

afterEach(() => {
  vi.useRealTimers();
});

describe('runGate: PreCheck rules', () => {
  it('runs PreCheck rules before every attempt, before the call', async () => {
    const log: string[] = [];
    const { call } = script('{"title": {"n": 5}}', '{"title": "ok"}');
    const when = vi.fn((scope: ReliabilityScope<string>) => {
      log.push(`pre-check ${scope.phase} ${scope.attempt}`);
      return false;
    });
    const counted: PreCheckRule<string> = { kind: 'counter', then: 'fail-fast', when };
    await gate({
      call: async (context) => {
        log.push(`call ${context.attempt}`);
        return call(context);
      },
      preCheck: [counted],
      postDecide: strictOutputRules(),
    });
    expect(when).toHaveBeenCalledTimes(2);
    expect(log).toEqual(['pre-check pre-check 1', 'call 1', 'pre-check pre-check 2', 'call 2']);
  });

  it('lets PreCheck rules see the previous attempt’s failure kind', async () => {
    const seen: string[] = [];
    const { call } = script('{"title": {"n": 5}}', '{"title": "ok"}');
    const rule: ReliabilityRule<string> = {
      kind: 'observer',
      then: 'continue',
      when: (scope) => {
        seen.push(scope.errorKind);
        return true;
      },
    };
    await gate({ call, preCheck: [rule as PreCheckRule<string>], postDecide: strictOutputRules() });
    expect(seen).toEqual(['ok', 'schema-fail']);
  });

  it('stops before the call when a PreCheck rule fails fast', async () => {
    const { call } = script('{"title": "ok"}');
    const { events, onEvent } = recorder();
    const blocked: PreCheckRule<string> = { kind: 'maintenance', label: 'closed for maintenance', then: 'fail-fast', when: () => true };
    const error = await failFastOf(gate({ call, preCheck: [blocked], onEvent }));
    expect(call).not.toHaveBeenCalled();
    expect(error).toMatchObject({ kind: 'maintenance', label: 'closed for maintenance', phase: 'pre-check', attempt: 1 });
    expect(error.attempts).toEqual([]);
    expect(events).toEqual([{ type: 'reliability.fail-fast', rule: 'maintenance', label: 'closed for maintenance', attempt: 1, errorKind: 'ok', phase: 'pre-check' }]);
  });

  it('stops before a later attempt when a PreCheck rule starts matching', async () => {
    const { call } = script('{"title": {"n": 5}}', '{"title": "ok"}');
    const secondAttempt: PreCheckRule<string> = { kind: 'one-shot', then: 'fail-fast', when: (scope) => scope.attempt === 2 };
    const error = await failFastOf(gate({ call, preCheck: [secondAttempt], postDecide: strictOutputRules() }));
    expect(call).toHaveBeenCalledTimes(1);
    expect(error.kind).toBe('one-shot');
    expect(error.errorKind).toBe('schema-fail');
    expect(error.attempts).toHaveLength(1);
  });

  it('waits before the attempt when a continuing PreCheck rule gives a backoff, then runs the rules after it', async () => {
    const { call } = script('{"title": "ok"}');
    const { events, onEvent } = recorder();
    const log: string[] = [];
    const wait: PreCheckRule<string> = { kind: 'shared-backoff', then: 'continue', when: () => true, backoff: () => (log.push('backoff'), 30) };
    const after: PreCheckRule<string> = { kind: 'budget', then: 'fail-fast', when: () => (log.push('budget'), false) };
    const started = performance.now();
    await gate({ call: async (context) => (log.push('call'), call(context)), preCheck: [wait, after], onEvent });
    expect(performance.now() - started).toBeGreaterThanOrEqual(25);
    expect(log).toEqual(['backoff', 'budget', 'call']);
    expect(events).toEqual([{ type: 'reliability.wait', attempt: 1, rule: 'shared-backoff', delayMs: 30 }]);
  });

  it('does not wait or report when a PreCheck backoff is zero, and a later fail-fast rule still stops the call', async () => {
    const { call } = script('{"title": "ok"}');
    const { events, onEvent } = recorder();
    const wait: PreCheckRule<string> = { kind: 'shared-backoff', then: 'continue', when: () => true, backoff: 0 };
    const blocked: PreCheckRule<string> = { kind: 'budget', then: 'fail-fast', when: () => true };
    const error = await failFastOf(gate({ call, preCheck: [wait, blocked], onEvent }));
    expect(error.kind).toBe('budget');
    expect(call).not.toHaveBeenCalled();
    expect(events.map((event) => event.type)).toEqual(['reliability.fail-fast']);
  });

  it('aborts a PreCheck wait with the signal', async () => {
    const { call } = script('{"title": "ok"}');
    const controller = new AbortController();
    const wait: PreCheckRule<string> = { kind: 'shared-backoff', then: 'continue', when: () => true, backoff: 10_000 };
    setTimeout(() => controller.abort(), 20);
    await expect(gate({ call, preCheck: [wait], signal: controller.signal })).rejects.toSatisfy(AbortedError.isInstance);
    expect(call).not.toHaveBeenCalled();
  });

  it('rejects a PreCheck rule that decides anything but continue or fail-fast, before any call', async () => {
    const { call } = script('{"title": "ok"}');
    const retrying: ReliabilityRule<string> = { kind: 'bad-pre-check', then: 'retry', when: () => true };
    await expect(gate({ call, preCheck: [retrying as unknown as PreCheckRule<string>] })).rejects.toThrow(TypeError);
    await expect(gate({ call, preCheck: [retrying as unknown as PreCheckRule<string>] })).rejects.toThrow(/bad-pre-check/);
    expect(call).not.toHaveBeenCalled();
  });
});

describe('runGate: rules that throw', () => {
  it('fails fast with rule-error when a PostDecide when throws, never treating it as no match', async () => {
    const { call } = script('{"title": {"n": 5}}', '{"title": "ok"}');
    const { events, onEvent } = recorder();
    const broken: PreCheckRule<string> = {
      kind: 'broken-rule',
      then: 'fail-fast',
      when: () => {
        throw new Error('rule bug');
      },
    };
    const error = await failFastOf(gate({ call, postDecide: [broken, ...strictOutputRules()], onEvent }));
    expect(call).toHaveBeenCalledTimes(1);
    expect(error).toMatchObject({ kind: 'rule-error', label: 'broken-rule', phase: 'rule-error', attempt: 1 });
    expect(error.cause).toEqual({ name: 'Error', message: 'rule bug' });
    expect(events).toContainEqual({ type: 'reliability.rule-error', phase: 'post-decide', rule: 'broken-rule', part: 'when', message: 'rule bug' });
  });

  it('fails fast with rule-error when a rule throws on an otherwise accepted answer', async () => {
    const { call } = script('{"title": "ok"}');
    const broken: ReliabilityRule<string> = {
      kind: 'broken-rule',
      then: 'retry',
      when: async () => {
        throw new Error('async rule bug');
      },
    };
    const error = await failFastOf(gate({ call, postDecide: [broken] }));
    expect(error.kind).toBe('rule-error');
    expect(call).toHaveBeenCalledTimes(1);
  });

  it('fails fast with rule-error before the call when a PreCheck when throws', async () => {
    const { call } = script('{"title": "ok"}');
    const { events, onEvent } = recorder();
    const broken: PreCheckRule<string> = {
      kind: 'broken-pre-check',
      then: 'continue',
      when: () => {
        throw new Error('pre-check bug');
      },
    };
    const error = await failFastOf(gate({ call, preCheck: [broken], onEvent }));
    expect(call).not.toHaveBeenCalled();
    expect(error.kind).toBe('rule-error');
    expect(events).toContainEqual({ type: 'reliability.rule-error', phase: 'pre-check', rule: 'broken-pre-check', part: 'when', message: 'pre-check bug' });
  });

  it('fails fast with rule-error when a backoff throws', async () => {
    const { call } = script('{"title": {"n": 5}}', '{"title": "ok"}');
    const { events, onEvent } = recorder();
    const rule: ReliabilityRule<string> = {
      kind: 'bad-backoff',
      then: 'retry',
      when: (scope) => scope.errorKind !== 'ok',
      backoff: () => {
        throw new Error('backoff bug');
      },
    };
    const error = await failFastOf(gate({ call, postDecide: [rule], onEvent }));
    expect(error.kind).toBe('rule-error');
    expect(call).toHaveBeenCalledTimes(1);
    expect(events).toContainEqual({ type: 'reliability.rule-error', phase: 'post-decide', rule: 'bad-backoff', part: 'backoff', message: 'backoff bug' });
  });
});
