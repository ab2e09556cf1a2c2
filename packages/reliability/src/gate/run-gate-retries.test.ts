import { Type } from '@sinclair/typebox';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ValidationFailure } from '../errors/validation-failure';
import { strictOutputRules } from '../rules/strict-output-rules';
import { defaultStuckLoopRule, noProgressRule } from '../rules/stuck-loop-rules';
import { lastNValidationErrorsMatch } from '../stuck-loop';
import type { ValidationIssue } from '../validation/issue';
import { failureSignature } from './failure-signature';
import { toValidator } from '../validation/to-validator';
import { validateOutput } from '../validation/validate-output';
import type { GateVerdict } from './gate-options';
import type { ReliabilityRule } from './rule';
import { runGate } from './run-gate';
import { type Task, script, recorder, gate, failFastOf } from '../testing/run-gate-fixture';

afterEach(() => {
  vi.useRealTimers();
});

describe('runGate: retry budgets and stuck loops', () => {
  it('makes exactly maxRetries + 1 calls, then fails fast with schema-retry-exhausted', async () => {
    const { call } = script('{}', '{"title": {"n": 1}}', '{"title": "x", "colour": "red"}');
    const { events, onEvent } = recorder();
    const error = await failFastOf(gate({ call, postDecide: strictOutputRules({ maxRetries: 2 }), onEvent }));
    expect(call).toHaveBeenCalledTimes(3);
    expect(error.kind).toBe('schema-retry-exhausted');
    expect(error.phase).toBe('post-decide');
    expect(error.attempt).toBe(3);
    expect(error.errorKind).toBe('schema-fail');
    expect(error.retryable).toBe(false);
    expect(error.attempts).toHaveLength(3);
    expect(error.attempts.map((record) => record.status)).toEqual(['invalid', 'invalid', 'invalid']);
    expect(events.filter((event) => event.type === 'validation.failed')).toHaveLength(3);
    expect(events.at(-1)).toMatchObject({ type: 'reliability.fail-fast', rule: 'schema-retry-exhausted', attempt: 3, errorKind: 'schema-fail' });
  });

  it('stops after two identical failures with schema-stuck-loop, whatever the values', async () => {
    const { call } = script('{"title": {"n": 1}}', '{"title": {"n": 2}}', '{"title": "ok"}');
    const error = await failFastOf(gate({ call, postDecide: strictOutputRules({ maxRetries: 5 }) }));
    expect(call).toHaveBeenCalledTimes(2);
    expect(error.kind).toBe('schema-stuck-loop');
    expect(error.attempts).toHaveLength(2);
  });

  it('fails fast on a validation failure when no rule retries it (validation.failed still fires)', async () => {
    const { call } = script('{"title": {"n": 5}}');
    const { events, onEvent } = recorder();
    const error = await failFastOf(gate({ call, onEvent }));
    expect(call).toHaveBeenCalledTimes(1);
    expect(error.kind).toBe('unhandled-failure');
    expect(events.map((event) => event.type)).toEqual(['validation.failed', 'reliability.fail-fast']);
  });

  it('stops at the attempt cap whatever the rules say', async () => {
    const { call } = script('{"title": "ok"}');
    const always: ReliabilityRule<string> = { kind: 'always-retry', then: 'retry', when: () => true };
    const error = await failFastOf(gate({ call, postDecide: [always], limits: { maxAttempts: 4 } }));
    expect(call).toHaveBeenCalledTimes(4);
    expect(error.kind).toBe('loop-cap');
    expect(error.phase).toBe('loop-cap');
    expect(error.attempt).toBe(4);
    expect(error.attempts).toHaveLength(4);
  });

  it('stops with schema-no-progress when the issue count does not shrink', async () => {
    const schema = Type.Object({ a: Type.String(), b: Type.String(), c: Type.String() });
    const validator = toValidator(schema);
    const validate = async (text: string): Promise<GateVerdict<unknown>> => {
      const check = await validateOutput(text, validator);
      return check.ok ? { status: 'valid', value: check.value } : { status: 'invalid', failure: check.failure };
    };
    const stuck = script('{"a": "x", "b": "x"}', '{"a": "x"}', '{"a": 1, "b": "x"}', '{"a": "x", "b": "x", "c": "x"}');
    const error = await failFastOf(
      runGate({ call: stuck.call, validate, postDecide: [noProgressRule(3), ...strictOutputRules({ maxRetries: 10, stuckLoop: false })] }),
    );
    expect(stuck.call).toHaveBeenCalledTimes(3);
    expect(error.kind).toBe('schema-no-progress');

    const improving = script('{}', '{"a": "x"}', '{"a": "x", "b": "x"}', '{"a": "x", "b": "x", "c": "x"}');
    const result = await runGate({ call: improving.call, validate, postDecide: [noProgressRule(3), ...strictOutputRules({ maxRetries: 10, stuckLoop: false })] });
    expect(improving.call).toHaveBeenCalledTimes(4);
    expect(result.value).toEqual({ a: 'x', b: 'x', c: 'x' });
  });
});

describe('runGate: retry budgets and stuck loops', () => {
  describe('stuck-loop signatures compare path and kind sets, not messages or values', () => {
    const failWith = (issues: ValidationIssue[]): GateVerdict<Task> => ({
      status: 'invalid',
      failure: new ValidationFailure({ stage: 'schema-validate', message: 'invalid', rawOutput: '{}', issues }),
    });

    it('treats the same paths and kinds with other messages, values and order as the same failure', async () => {
      const verdicts = [
        failWith([
          { path: ['title'], pathText: 'title', kind: 'type', expected: 'string', received: 1, message: 'must be string' },
          { path: ['due'], pathText: 'due', kind: 'missing', message: "must have required property 'due'" },
        ]),
        failWith([
          { path: ['due'], pathText: 'due', kind: 'missing', message: 'Required' },
          { path: ['title'], pathText: 'title', kind: 'type', expected: 'string', received: true, message: 'Expected string, received boolean' },
        ]),
      ];
      const { call } = script('a', 'b', 'c');
      let index = 0;
      const error = await failFastOf(
        gate({ call, validate: () => verdicts[Math.min(index++, verdicts.length - 1)] as GateVerdict<Task>, postDecide: [defaultStuckLoopRule, ...strictOutputRules({ maxRetries: 5, stuckLoop: false })] }),
      );
      expect(error.kind).toBe('schema-stuck-loop');
      expect(call).toHaveBeenCalledTimes(2);
    });

    it('treats the same messages at other paths or kinds as different failures', async () => {
      const verdicts = [
        failWith([{ path: ['title'], pathText: 'title', kind: 'type', message: 'bad value', received: 1 }]),
        failWith([{ path: ['due'], pathText: 'due', kind: 'type', message: 'bad value', received: 1 }]),
        failWith([{ path: ['due'], pathText: 'due', kind: 'format', message: 'bad value', received: 1 }]),
      ];
      const { call } = script('a');
      let index = 0;
      const error = await failFastOf(
        gate({ call, validate: () => verdicts[Math.min(index++, verdicts.length - 1)] as GateVerdict<Task>, postDecide: strictOutputRules({ maxRetries: 2 }) }),
      );
      expect(error.kind).toBe('schema-retry-exhausted');
      expect(call).toHaveBeenCalledTimes(3);
    });

    it('lastNValidationErrorsMatch needs n equal signatures at the end of the history', () => {
      const signature = (issues: ValidationIssue[]) => failureSignature({ stage: 'schema-validate', message: 'invalid', issues });
      const a = signature([
        { path: ['x'], pathText: 'x', kind: 'missing', message: 'one' },
        { path: ['y', 0], pathText: 'y[0]', kind: 'type', message: 'two', received: 1 },
      ]);
      const aReordered = signature([
        { path: ['y', 0], pathText: 'y[0]', kind: 'type', message: 'different words', received: 'other value' },
        { path: ['x'], pathText: 'x', kind: 'missing', message: 'Required' },
      ]);
      const b = signature([{ path: ['x'], pathText: 'x', kind: 'type', message: 'one' }]);
      expect(aReordered).toBe(a);
      expect(lastNValidationErrorsMatch({ validationErrorHistory: [a, aReordered] })).toBe(true);
      expect(lastNValidationErrorsMatch({ validationErrorHistory: [a, b] })).toBe(false);
      expect(lastNValidationErrorsMatch({ validationErrorHistory: [b, a, a] }, 3)).toBe(false);
      expect(lastNValidationErrorsMatch({ validationErrorHistory: [b, a, a, a] }, 3)).toBe(true);
      expect(lastNValidationErrorsMatch({ validationErrorHistory: [a] })).toBe(false);
    });
  });
});
