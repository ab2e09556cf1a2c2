import { afterEach, describe, expect, it, vi } from 'vitest';
import { formatFeedback } from '../feedback/format-feedback';
import { TRUNCATION_MARKER } from '../feedback/truncate-echo';
import { strictOutputRules } from '../rules/strict-output-rules';
import type { ValidationIssue } from '../validation/issue';
import type { GateEvent } from './gate-event';
import type { ReliabilityRule } from './rule';
import { runGate } from './run-gate';
import { script, recorder, gate } from '../testing/run-gate-fixture';

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
    expect(result.attempts[0]).toMatchObject({ attempt: 1, status: 'valid', errorKind: 'ok', feedbackSent: false, providerIndex: 0, issues: [] });
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
    expect(events[1]).toMatchObject({ type: 'reliability.retry', attempt: 1, rule: 'schema-retry', errorKind: 'schema-fail', delayMs: 0, decision: 'retry', feedback: feedback?.text });
    expect(events[2]).toEqual({ type: 'reliability.recovered', attempt: 2, priorFailures: 1, via: 'feedback' });

    expect(result.attempts.map((record) => [record.status, record.errorKind, record.feedbackSent])).toEqual([
      ['invalid', 'schema-fail', false],
      ['valid', 'ok', true],
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
});

describe('runGate: acceptance and feedback', () => {
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
