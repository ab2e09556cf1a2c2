import { Type } from '@sinclair/typebox';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AbortedError } from '../errors/aborted-error';
import { ReliabilityFailFastError } from '../errors/reliability-fail-fast-error';
import { ValidationFailure } from '../errors/validation-failure';
import { formatFeedback } from '../feedback/format-feedback';
import { TRUNCATION_MARKER } from '../feedback/truncate-echo';
import { costBudget, tokenBudget } from '../rules/budget-rules';
import { failoverRule } from '../rules/failover-rule';
import { strictOutputRules } from '../rules/strict-output-rules';
import { defaultStuckLoopRule, noProgressRule } from '../rules/stuck-loop-rules';
import { lastNValidationErrorsMatch } from '../stuck-loop';
import { type UsageTotals, ZERO_USAGE } from '../usage';
import type { ValidationIssue } from '../validation/issue';
import { failureSignature } from './failure-signature';
import { toValidator } from '../validation/to-validator';
import { validateOutput } from '../validation/validate-output';
import type { GateEvent } from './gate-event';
import type { GateAttemptContext, GateOptions, GateResult, GateVerdict } from './gate-options';
import type { PreCheckRule, ReliabilityRule } from './rule';
import type { ReliabilityScope } from './scope';
import { runGate } from './run-gate';

const taskSchema = Type.Object({ title: Type.String() }, { additionalProperties: false });
const taskValidator = toValidator(taskSchema);
type Task = { title: string };

/** Judges model text as JSON against the task schema, the way an output gate does. */
async function judge(text: string): Promise<GateVerdict<Task>> {
  const check = await validateOutput(text, taskValidator);
  if (check.ok) return { status: 'accept', value: check.value, rawOutput: text };
  return { status: 'invalid', failure: check.failure };
}

type Step = string | { readonly throws: unknown };

/** A fake model call that plays `steps` in order (the last one repeats) and records each attempt's context. */
function script(...steps: Step[]) {
  const contexts: GateAttemptContext[] = [];
  const call = vi.fn(async (context: GateAttemptContext): Promise<string> => {
    contexts.push(context);
    const step = steps[Math.min(contexts.length, steps.length) - 1];
    if (step === undefined) throw new Error('script is empty');
    if (typeof step === 'object') throw step.throws;
    return step;
  });
  return { call, contexts };
}

function recorder() {
  const events: GateEvent[] = [];
  return { events, onEvent: (event: GateEvent) => events.push(event) };
}

function gate(options: Partial<GateOptions<string, Task>> & Pick<GateOptions<string, Task>, 'call'>): Promise<GateResult<string, Task>> {
  return runGate<string, Task>({ validate: judge, ...options });
}

async function failFastOf(promise: Promise<unknown>): Promise<ReliabilityFailFastError> {
  const error = await promise.then(
    () => {
      throw new Error('expected the gate to fail fast');
    },
    (thrown: unknown) => thrown,
  );
  expect(ReliabilityFailFastError.isInstance(error)).toBe(true);
  return error as ReliabilityFailFastError;
}

function tokens(inputTokens: number, outputTokens = 0, costUsd?: number): UsageTotals {
  return { ...ZERO_USAGE, inputTokens, outputTokens, ...(costUsd === undefined ? {} : { costUsd }) };
}

const rateLimited = (retryAfterMs?: number) => ({ throws: { errorKind: 'rate-limit', message: 'slow down', ...(retryAfterMs === undefined ? {} : { retryAfterMs }) } });

afterEach(() => {
  vi.useRealTimers();
});

describe('runGate: acceptance and feedback', () => {
  it('accepts a valid first answer in one attempt with no failure events', async () => {
    const { call, contexts } = script('{"title": "Pay rent"}');
    const { events, onEvent } = recorder();
    const result = await gate({ call, postDecide: strictOutputRules(), onEvent });
    expect(result.value).toEqual({ title: 'Pay rent' });
    expect(result.via).toBe('model');
    expect(result.response).toBe('{"title": "Pay rent"}');
    expect(result.attempts).toHaveLength(1);
    expect(result.attempts[0]).toMatchObject({ attempt: 1, status: 'ok', errorKind: 'ok', feedbackSent: false, providerIndex: 0, issues: [] });
    expect(contexts[0]).not.toHaveProperty('feedback');
    expect(events).toEqual([]);
  });

  it('accepts any response as the value when no validate is given', async () => {
    const { call } = script('plain text');
    const result = await runGate({ call });
    expect(result).toMatchObject({ value: 'plain text', via: 'model' });
  });

  it('retries a validation failure once with feedback, then recovers via feedback', async () => {
    const { call, contexts } = script('{"title": {"n": 5}}', '{"title": "Pay rent"}');
    const log: string[] = [];
    const probe: ReliabilityRule<string> = {
      kind: 'probe',
      then: 'fail-fast',
      when: (scope) => {
        log.push(`post-decide ${scope.attempt}`);
        return false;
      },
    };
    const events: GateEvent[] = [];
    const result = await gate({
      call,
      postDecide: [probe, ...strictOutputRules()],
      onEvent: (event) => {
        events.push(event);
        log.push(event.type);
      },
    });

    expect(call).toHaveBeenCalledTimes(2);
    expect(result.value).toEqual({ title: 'Pay rent' });
    expect(contexts[0]).not.toHaveProperty('feedback');
    const feedback = contexts[1]?.feedback;
    expect(feedback?.previousOutput).toBe('{"title": {"n": 5}}');
    expect(feedback?.text).toContain(`- 'title': expected string, got object`);
    expect(feedback?.text.startsWith('Your previous reply did not match the required schema.')).toBe(true);

    expect(log).toEqual(['validation.failed', 'post-decide 1', 'reliability.retry', 'post-decide 2', 'reliability.recovered']);
    expect(events[0]).toMatchObject({ type: 'validation.failed', stage: 'schema-validate', attempt: 1, validationFailures: 1, issueCount: 1, rawOutput: '{"title": {"n": 5}}', pathText: 'title' });
    expect(events[1]).toMatchObject({ type: 'reliability.retry', attempt: 1, kind: 'schema-retry', errorKind: 'schema-fail', delayMs: 0, decision: 'retry', feedback: feedback?.text });
    expect(events[2]).toEqual({ type: 'reliability.recovered', attempt: 2, priorFailures: 1, via: 'feedback' });

    expect(result.attempts.map((record) => [record.status, record.errorKind, record.feedbackSent])).toEqual([
      ['invalid', 'schema-fail', false],
      ['ok', 'ok', true],
    ]);
    expect(result.attempts[0]?.rawOutput).toBe('{"title": {"n": 5}}');
  });

  it('sends parse feedback quoting the parser message for output that is not JSON', async () => {
    const { call, contexts } = script('{"title": "Pay', '{"title": "Pay rent"}');
    const { events, onEvent } = recorder();
    await gate({ call, postDecide: strictOutputRules(), onEvent });
    const text = contexts[1]?.feedback?.text ?? '';
    expect(text.startsWith('Your previous reply could not be parsed as JSON.')).toBe(true);
    expect(text).toContain('Parser message (quoted data): "');
    expect(events[0]).toMatchObject({ type: 'validation.failed', stage: 'json-parse' });
  });

  it('caps the echoed previous output to the feedback token budget', async () => {
    const huge = `{"title": 5, "notes": "${'x'.repeat(10_000)}"}`;
    const { call, contexts } = script(huge, '{"title": "ok"}');
    await gate({ call, postDecide: strictOutputRules(), limits: { maxFeedbackTokens: 50 } });
    const previous = contexts[1]?.feedback?.previousOutput ?? '';
    expect(previous).toContain(TRUNCATION_MARKER);
    expect(previous.length).toBeLessThanOrEqual(200);
  });

  it('sends no feedback when feedback is off, and reports recovery via retry', async () => {
    const { call, contexts } = script('{"title": {"n": 5}}', '{"title": "ok"}');
    const { events, onEvent } = recorder();
    await gate({ call, postDecide: strictOutputRules(), feedbackForLLM: false, onEvent });
    expect(contexts[1]).not.toHaveProperty('feedback');
    expect(events.find((event) => event.type === 'reliability.recovered')).toMatchObject({ via: 'retry' });
  });

  it('uses a rule feedbackForLLM when it returns text', async () => {
    const { call, contexts } = script('{"title": {"n": 5}}', '{"title": "ok"}');
    const rule: ReliabilityRule<string> = {
      kind: 'custom-retry',
      then: 'retry',
      when: (scope) => scope.errorKind === 'schema-fail',
      feedbackForLLM: ({ issues }) => `fix ${issues.length} problem`,
    };
    await gate({ call, postDecide: [rule] });
    expect(contexts[1]?.feedback).toEqual({ previousOutput: '{"title": {"n": 5}}', text: 'fix 1 problem' });
  });

  it('falls back to the default feedback and reports feedback-error when feedbackForLLM throws', async () => {
    const { call, contexts } = script('{"title": {"n": 5}}', '{"title": "ok"}');
    const { events, onEvent } = recorder();
    const rule: ReliabilityRule<string> = {
      kind: 'custom-retry',
      then: 'retry',
      when: (scope) => scope.errorKind === 'schema-fail',
      feedbackForLLM: () => {
        throw new Error('feedback callback broke');
      },
    };
    const result = await gate({ call, postDecide: [rule], onEvent });
    expect(result.value).toEqual({ title: 'ok' });
    const issues: ValidationIssue[] = [{ path: ['title'], pathText: 'title', kind: 'type', expected: 'string', received: { n: 5 }, message: 'must be string' }];
    expect(contexts[1]?.feedback?.text).toBe(formatFeedback({ stage: 'schema-validate', issues }));
    expect(events).toContainEqual({ type: 'reliability.feedback-error', source: 'rule', message: 'feedback callback broke' });
    expect(events.find((event) => event.type === 'reliability.recovered')).toMatchObject({ via: 'feedback' });
  });

  it('falls back to the default feedback and reports feedback-error when the feedback template throws', async () => {
    const { call, contexts } = script('{"title": {"n": 5}}', '{"title": "ok"}');
    const { events, onEvent } = recorder();
    const result = await gate({
      call,
      postDecide: strictOutputRules(),
      onEvent,
      feedbackForLLM: () => {
        throw new Error('template broke');
      },
    });
    expect(result.value).toEqual({ title: 'ok' });
    expect(contexts[1]?.feedback?.text.startsWith('Your previous reply did not match the required schema.')).toBe(true);
    expect(events).toContainEqual({ type: 'reliability.feedback-error', source: 'template', message: 'template broke' });
  });

  it('keeps running when the event listener throws', async () => {
    const { call } = script('{"title": {"n": 5}}', '{"title": "ok"}');
    const result = await gate({
      call,
      postDecide: strictOutputRules(),
      onEvent: () => {
        throw new Error('listener broke');
      },
    });
    expect(result.value).toEqual({ title: 'ok' });
  });
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
    expect(events.at(-1)).toMatchObject({ type: 'reliability.fail-fast', kind: 'schema-retry-exhausted', attempt: 3, errorKind: 'schema-fail' });
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
      return check.ok ? { status: 'accept', value: check.value } : { status: 'invalid', failure: check.failure };
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
    expect(events).toEqual([{ type: 'reliability.fail-fast', kind: 'maintenance', rule: 'maintenance', label: 'closed for maintenance', attempt: 1, errorKind: 'ok', phase: 'pre-check' }]);
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
    expect(events).toEqual([{ type: 'reliability.wait', attempt: 1, kind: 'shared-backoff', rule: 'shared-backoff', delayMs: 30 }]);
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
    expect(events).toContainEqual({ type: 'reliability.rule-error', phase: 'post-decide', ruleKind: 'broken-rule', part: 'when', message: 'rule bug' });
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
    expect(events).toContainEqual({ type: 'reliability.rule-error', phase: 'pre-check', ruleKind: 'broken-pre-check', part: 'when', message: 'pre-check bug' });
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
    expect(events).toContainEqual({ type: 'reliability.rule-error', phase: 'post-decide', ruleKind: 'bad-backoff', part: 'backoff', message: 'backoff bug' });
  });
});

describe('runGate: provider errors', () => {
  it('retries a transient error, honouring Retry-After capped by maxRetryAfterMs', async () => {
    const { call } = script(rateLimited(120_000), '{"title": "ok"}');
    const { events, onEvent } = recorder();
    const result = await gate({ call, onEvent, limits: { maxRetryAfterMs: 20 } });
    expect(call).toHaveBeenCalledTimes(2);
    expect(result.value).toEqual({ title: 'ok' });
    expect(events).toContainEqual({ type: 'reliability.retry', attempt: 1, kind: 'transient-retry', rule: 'transient-retry', errorKind: 'rate-limit', delayMs: 20, decision: 'retry' });
    expect(events.at(-1)).toEqual({ type: 'reliability.recovered', attempt: 2, priorFailures: 1, via: 'retry' });
    expect(result.attempts[0]).toMatchObject({ status: 'error', errorKind: 'rate-limit', usage: ZERO_USAGE });
  });

  it('caps Retry-After at 30 s by default and waits that long', async () => {
    vi.useFakeTimers();
    const { call } = script(rateLimited(120_000), '{"title": "ok"}');
    const { events, onEvent } = recorder();
    const running = gate({ call, onEvent });
    await vi.advanceTimersByTimeAsync(29_999);
    expect(call).toHaveBeenCalledTimes(1);
    expect(events.find((event) => event.type === 'reliability.retry')).toMatchObject({ delayMs: 30_000 });
    await vi.advanceTimersByTimeAsync(1);
    const result = await running;
    expect(call).toHaveBeenCalledTimes(2);
    expect(result.value).toEqual({ title: 'ok' });
  });

  it('uses exponential backoff when the provider gives no Retry-After', async () => {
    vi.useFakeTimers();
    const { call } = script({ throws: { status: 503 } }, '{"title": "ok"}');
    const { events, onEvent } = recorder();
    const running = gate({ call, onEvent });
    await vi.advanceTimersByTimeAsync(1_000);
    await running;
    const retry = events.find((event) => event.type === 'reliability.retry');
    expect(retry).toMatchObject({ errorKind: 'server-error' });
    const delay = retry?.type === 'reliability.retry' ? retry.delayMs : -1;
    expect(delay).toBeGreaterThanOrEqual(250);
    expect(delay).toBeLessThanOrEqual(500);
  });

  it('gives up on transient errors after the default two retries', async () => {
    const { call } = script(rateLimited(0));
    const error = await failFastOf(gate({ call }));
    expect(call).toHaveBeenCalledTimes(3);
    // The stop says the failure was retried: its retries were used up.
    expect(error.kind).toBe('transient-retries-exhausted');
    expect(error.message).toContain('transient retries exhausted: 2 of 2');
    expect(error.errorKind).toBe('rate-limit');
  });

  it.each([
    ['auth', { status: 401, message: 'invalid key' }],
    ['auth', { errorKind: 'auth', message: 'forbidden' }],
    ['bad-request', { status: 400, message: 'bad' }],
    ['bad-request', { errorKind: 'bad-request', message: 'bad' }],
  ] as const)('never retries %s errors', async (kind, thrown) => {
    const { call } = script({ throws: thrown }, '{"title": "ok"}');
    const error = await failFastOf(gate({ call, postDecide: strictOutputRules() }));
    expect(call).toHaveBeenCalledTimes(1);
    expect(error.errorKind).toBe(kind);
    expect(error.attempts).toHaveLength(1);
  });

  it('reduces the fail-fast cause to { name, message } so no other field leaks', async () => {
    const secret = 'sk-live-SECRET';
    const thrown = Object.assign(new Error('Unauthorized'), { status: 401, headers: { authorization: `Bearer ${secret}` }, body: { key: secret } });
    const { call } = script({ throws: thrown });
    const error = await failFastOf(gate({ call }));
    expect(error.cause).toEqual({ name: 'Error', message: 'Unauthorized' });
    expect(JSON.stringify(error.cause)).not.toContain(secret);
    expect(error.message).not.toContain(secret);
    expect(error.message).toContain('Unauthorized');
  });

  it('reports an error verdict and fails fast when no rule handles it', async () => {
    const { call } = script('I refuse');
    const error = await failFastOf(gate({ call, validate: () => ({ status: 'error', errorKind: 'refusal', message: 'model refused' }) }));
    expect(error.errorKind).toBe('refusal');
    expect(error.cause).toEqual({ name: 'Error', message: 'model refused' });
    expect(call).toHaveBeenCalledTimes(1);
  });
});

describe('runGate: abort', () => {
  it('rejects with AbortedError when the signal aborts during a backoff wait, without another call', async () => {
    const controller = new AbortController();
    const { call } = script(rateLimited(60_000), '{"title": "ok"}');
    const { events, onEvent } = recorder();
    const running = gate({
      call,
      signal: controller.signal,
      limits: { maxRetryAfterMs: 60_000 },
      onEvent: (event) => {
        onEvent(event);
        if (event.type === 'reliability.retry') setTimeout(() => controller.abort(), 0);
      },
    });
    const error = await running.catch((thrown: unknown) => thrown);
    expect(AbortedError.isInstance(error)).toBe(true);
    expect(call).toHaveBeenCalledTimes(1);
    expect(events.some((event) => event.type === 'reliability.fail-fast')).toBe(false);
  });

  it('makes no call when the signal is already aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    const { call } = script('{"title": "ok"}');
    const error = await gate({ call, signal: controller.signal }).catch((thrown: unknown) => thrown);
    expect(AbortedError.isInstance(error)).toBe(true);
    expect(call).not.toHaveBeenCalled();
  });

  it('never retries an aborted call, even with rules that would retry', async () => {
    const controller = new AbortController();
    const always: ReliabilityRule<string> = { kind: 'always-retry', then: 'retry', when: () => true };
    const call = vi.fn(async (context: GateAttemptContext): Promise<string> => {
      expect(context.signal).toBe(controller.signal);
      controller.abort();
      throw new DOMException('aborted', 'AbortError');
    });
    const error = await gate({ call, signal: controller.signal, postDecide: [always] }).catch((thrown: unknown) => thrown);
    expect(AbortedError.isInstance(error)).toBe(true);
    expect(call).toHaveBeenCalledTimes(1);
  });

  it('treats a thrown AbortError as aborted even when the gate has no signal', async () => {
    const always: ReliabilityRule<string> = { kind: 'always-retry', then: 'retry', when: () => true };
    const { call } = script({ throws: new DOMException('aborted', 'AbortError') });
    const error = await gate({ call, postDecide: [always] }).catch((thrown: unknown) => thrown);
    expect(AbortedError.isInstance(error)).toBe(true);
    expect(call).toHaveBeenCalledTimes(1);
  });
});

describe('runGate: providers and fallback', () => {
  it('moves to the next provider on retry-other', async () => {
    const { call, contexts } = script({ throws: { status: 503 } }, '{"title": "ok"}');
    const { events, onEvent } = recorder();
    const result = await gate({ call, postDecide: [failoverRule()], providerCount: 2, onEvent });
    expect(contexts.map((context) => context.providerIndex)).toEqual([0, 1]);
    expect(result.attempts.map((record) => record.providerIndex)).toEqual([0, 1]);
    expect(events).toContainEqual({ type: 'reliability.retry', attempt: 1, kind: 'provider-failover', rule: 'provider-failover', errorKind: 'server-error', delayMs: 0, decision: 'retry-other' });
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
    const accept: ReliabilityRule<string> = { kind: 'accept-anyway', then: 'ok', when: () => true };
    const result = await gate({ call, postDecide: [accept], validate: async (text) => ({ ...(await judge(text)), partialValue: JSON.parse(text) }) as GateVerdict<Task> });
    expect(result.value).toEqual({ title: { n: 5 } });
    expect(result.acceptedIssues?.map((issue) => issue.kind)).toEqual(['type']);
  });
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
      [0, 2, 'step', 'ok'],
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
    expect(events.at(-1)).toMatchObject({ type: 'reliability.fail-fast', kind: 'cost-budget', phase: 'pre-check' });
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
