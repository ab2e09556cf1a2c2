import { describe, expect, it } from 'vitest';
import { ValidationFailure } from '../errors/validation-failure';
import { strictOutputRules } from '../rules/strict-output-rules';
import { ZERO_USAGE } from '../usage';
import type { Judged } from './judged';
import { applyDecision } from './apply-decision';
import { decide } from './policy';
import type { Decision } from './decision';
import { defaultRules } from './default-rules';
import type { GateVerdict } from './gate-options';
import { noteAttempt, startGate } from './attempt-loop';
import type { GateSettings } from './gate-settings';
import { preCheck } from './pre-check';
import type { PreCheckRule, ReliabilityRule } from './rule';

const settings = (extra: Partial<GateSettings<unknown>> = {}): GateSettings<unknown> => ({
  preCheck: [],
  rules: [...strictOutputRules(), ...defaultRules()],
  maxAttempts: 10,
  maxRetryAfterMs: 30_000,
  providerCount: 1,
  feedback: { maxTokens: 4000 },
  maxRawOutputChars: 16_384,
  step: 1,
  callPurpose: 'step',
  ...extra,
});

const judged = (verdict: GateVerdict<unknown>): Judged<unknown, unknown> => ({
  response: {},
  thrown: undefined,
  verdict,
  validatorError: undefined,
  errorKind: verdict.status === 'valid' ? 'ok' : verdict.status === 'invalid' ? (verdict.failure.stage === 'json-parse' ? 'parse-fail' : 'schema-fail') : verdict.errorKind,
  retryAfterMs: undefined,
  latencyMs: 1,
});

const truncated = (text: string) => judged({ status: 'error', errorKind: 'truncated', message: 'cut', rawOutput: text });

const base = { customer: 'x', items: Array.from({ length: 300 }, (_, index) => ({ sku: `S${index}`, price: index === 7 ? 'seven' : index })) };
const schemaFailure = () =>
  judged({
    status: 'invalid',
    failure: new ValidationFailure({ stage: 'schema-validate', message: '1 issue', rawOutput: JSON.stringify(base, null, 2), issues: [{ path: ['items', 7, 'price'], pathText: 'items[7].price', kind: 'type', expected: 'number', received: 'seven', message: 'must be number' }] }),
    rejectedValue: base,
  });

async function decided(state: ReturnType<typeof startGate<unknown>>, attempt: number, outcome: Judged<unknown, unknown>): Promise<Decision> {
  noteAttempt(state, attempt, outcome, ZERO_USAGE);
  return decide(state, attempt, outcome, () => ZERO_USAGE, undefined);
}

describe('the policy on cut output: continue-output', () => {
  it('continues a cut output (trailing whitespace removed) within maxContinuations, then lets the rules stop it', async () => {
    const state = startGate(settings({ continuation: { maxContinuations: 2 } }));
    const first = await decided(state, 1, truncated('{"a": [1, \n  '));
    expect(first).toEqual({ type: 'continue-output', partial: '{"a": [1,', events: [] });
    applyDecision(state, first as Extract<Decision, { type: 'continue-output' }>);
    expect(state.continuation).toBe('{"a": [1,');
    const second = await decided(state, 2, truncated('{"a": [1, 2,'));
    expect(second.type).toBe('continue-output');
    applyDecision(state, second as Extract<Decision, { type: 'continue-output' }>);
    const third = await decided(state, 3, truncated('{"a": [1, 2, 3,'));
    expect(third).toMatchObject({ type: 'fail-fast', rule: 'unhandled-failure' });
  });

  it('stops at maxAttempts, never continues with continuation off, and ignores an empty cut output', async () => {
    expect(await decided(startGate(settings({ continuation: { maxContinuations: 5 }, maxAttempts: 1 })), 1, truncated('{"a'))).toMatchObject({ type: 'fail-fast', rule: 'loop-cap' });
    expect(await decided(startGate(settings()), 1, truncated('{"a'))).toMatchObject({ type: 'fail-fast' });
    expect(await decided(startGate(settings({ continuation: { maxContinuations: 2 } })), 1, truncated('   '))).toMatchObject({ type: 'fail-fast' });
  });

  it('a new output resets the continuations: a retry with feedback clears the pending cut output', async () => {
    const state = startGate(settings({ continuation: { maxContinuations: 1 }, patch: { minTokens: 10, maxPaths: 8 } }));
    applyDecision(state, (await decided(state, 1, truncated('{"a'))) as Extract<Decision, { type: 'continue-output' }>);
    const retry = await decided(state, 2, schemaFailure());
    expect(retry.type).toBe('retry');
    applyDecision(state, retry as Extract<Decision, { type: 'retry' }>);
    expect(state.continuation).toBeUndefined();
    expect(state.continuations).toBe(0);
  });
});

describe('the policy on a large schema failure: a retry carrying a patch request', () => {
  it('asks for only the corrected value when patch settings are given', async () => {
    const decision = await decided(startGate(settings({ patch: { minTokens: 100, maxPaths: 8 } })), 1, schemaFailure());
    expect(decision.type).toBe('retry');
    const retry = decision as Extract<Decision, { type: 'retry' }>;
    expect(retry.patch?.targets).toEqual([{ pathText: 'items[7].price', path: ['items', 7, 'price'] }]);
    expect(retry.feedback?.patch).toBe(retry.patch);
    expect(retry.feedback?.text).toContain('Paths you may set (quoted data): "items[7].price".');
  });

  it('asks for the whole value without patch settings, without the rejected value, or with a rule’s own feedback', async () => {
    expect(((await decided(startGate(settings()), 1, schemaFailure())) as Extract<Decision, { type: 'retry' }>).patch).toBeUndefined();
    const noValue = schemaFailure();
    const withoutValue = judged({ ...(noValue.verdict as Extract<GateVerdict<unknown>, { status: 'invalid' }>), rejectedValue: undefined });
    expect(((await decided(startGate(settings({ patch: { minTokens: 1, maxPaths: 8 } })), 1, withoutValue)) as Extract<Decision, { type: 'retry' }>).patch).toBeUndefined();
    const own: ReliabilityRule<unknown> = { kind: 'own-words', when: (scope) => scope.errorKind === 'schema-fail', then: 'retry', feedbackForLLM: 'Fix the price.' };
    const decision = (await decided(startGate(settings({ rules: [own, ...defaultRules()], patch: { minTokens: 1, maxPaths: 8 } })), 1, schemaFailure())) as Extract<Decision, { type: 'retry' }>;
    expect(decision.feedback?.text).toBe('Fix the price.');
    expect(decision.patch).toBeUndefined();
  });
});

const valid = (amount: number): Judged<unknown, { amount: number }> => ({
  response: { text: `{"amount": ${amount}}` },
  thrown: undefined,
  verdict: { status: 'valid', value: { amount }, rawOutput: `{"amount": ${amount}}` },
  validatorError: undefined,
  errorKind: 'ok',
  retryAfterMs: undefined,
  latencyMs: 1,
});

const overLimit: ReliabilityRule<unknown, { amount: number }> = { kind: 'over-limit', then: 'retry', feedbackForLLM: 'At most 60.', when: (scope) => (scope.value?.amount ?? 0) > 60 };

describe('the policy is pure: decide reads the memory, applyDecision changes it', () => {
  it("a rule's rejection of a valid value is carried by the decision; the memory changes only when it is applied", async () => {
    const memory = startGate(settings({ rules: [overLimit as ReliabilityRule<unknown>, ...defaultRules()] }));
    const judged = valid(90);
    noteAttempt(memory, 1, judged, ZERO_USAGE);
    const before = structuredClone({ history: memory.history, signatures: memory.signatures, lastKind: memory.lastKind, feedback: memory.feedback });

    const decision = await decide(memory, 1, judged, () => ZERO_USAGE, undefined);

    expect(decision).toMatchObject({ type: 'retry', rule: 'over-limit', rejection: { stage: 'rule-check', message: 'At most 60.' } });
    expect({ history: memory.history, signatures: memory.signatures, lastKind: memory.lastKind, feedback: memory.feedback }).toEqual(before);
    applyDecision(memory, decision);
    expect(memory.history).toEqual([{ attempt: 1, providerIndex: 0, errorKind: 'rule-rejected', issueCount: 1 }]);
    expect([memory.lastKind, memory.signatures.length, memory.feedback?.text]).toEqual(['rule-rejected', 1, 'At most 60.']);
  });

  it('deciding twice on the same memory gives the same decision', async () => {
    const memory = startGate(settings({ rules: [overLimit as ReliabilityRule<unknown>, ...defaultRules()] }));
    const judged = valid(90);
    noteAttempt(memory, 1, judged, ZERO_USAGE);
    const first = await decide(memory, 1, judged, () => ZERO_USAGE, undefined);
    const second = await decide(memory, 1, judged, () => ZERO_USAGE, undefined);
    expect(second).toEqual(first);
  });

  it('PreCheck returns a wait for the loop to carry out (it reports and sleeps for nothing itself), then admits from the next rule', async () => {
    const pause: PreCheckRule<unknown> = { kind: 'shared-backoff', then: 'continue', backoff: 250, when: () => true };
    const seen: string[] = [];
    const after: PreCheckRule<unknown> = { kind: 'after', then: 'continue', when: () => (seen.push('after'), false) };
    const memory = startGate(settings({ preCheck: [pause, after] }));
    const first = await preCheck(memory, 1, ZERO_USAGE, undefined);
    expect(first).toEqual({ type: 'wait', delayMs: 250, next: 1, events: [{ type: 'reliability.wait', attempt: 1, rule: 'shared-backoff', delayMs: 250 }] });
    expect(seen).toEqual([]);
    expect(await preCheck(memory, 1, ZERO_USAGE, undefined, 1)).toEqual({ type: 'admit' });
    expect(seen).toEqual(['after']);
  });
});
