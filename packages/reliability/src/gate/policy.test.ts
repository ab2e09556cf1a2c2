import { describe, expect, it } from 'vitest';
import { defaultRules } from './default-rules';
import { applyDecision } from './apply-decision';
import type { Judged } from './call-and-judge';
import { noteAttempt, startGate } from './gate-memory';
import type { GateSettings } from './gate-settings';
import { decide } from './policy';
import { preCheck } from './pre-check';
import type { PreCheckRule, ReliabilityRule } from './rule';
import { ZERO_USAGE } from '../usage';

const settings = (rules: readonly ReliabilityRule<unknown>[], preCheckRules: readonly PreCheckRule<unknown>[] = []): GateSettings<unknown> => ({
  preCheck: preCheckRules,
  rules: [...rules, ...defaultRules()],
  maxAttempts: 5,
  maxRetryAfterMs: 30_000,
  providerCount: 1,
  feedback: { maxTokens: 4000 },
  maxRawOutputChars: 16_384,
  step: 1,
  callPurpose: 'step',
});

const valid = (amount: number): Judged<unknown, { amount: number }> => ({
  response: { text: `{"amount": ${amount}}` },
  thrown: undefined,
  verdict: { status: 'accept', value: { amount }, rawOutput: `{"amount": ${amount}}` },
  validatorError: undefined,
  errorKind: 'ok',
  retryAfterMs: undefined,
  latencyMs: 1,
});

const overLimit: ReliabilityRule<unknown, { amount: number }> = { kind: 'over-limit', then: 'retry', feedbackForLLM: 'At most 60.', when: (scope) => (scope.value?.amount ?? 0) > 60 };

describe('the policy is pure: decide reads the memory, applyDecision changes it', () => {
  it("a rule's rejection of a valid value is carried by the decision; the memory changes only when it is applied", async () => {
    const memory = startGate(settings([overLimit as ReliabilityRule<unknown>]));
    const judged = valid(90);
    noteAttempt(memory, 1, judged, ZERO_USAGE);
    const before = structuredClone({ history: memory.history, signatures: memory.signatures, lastKind: memory.lastKind, feedback: memory.feedback });

    const decision = await decide(memory, 1, judged, ZERO_USAGE, undefined);

    expect(decision).toMatchObject({ type: 'retry', kind: 'over-limit', rejection: { stage: 'rule-check', message: 'At most 60.' } });
    expect({ history: memory.history, signatures: memory.signatures, lastKind: memory.lastKind, feedback: memory.feedback }).toEqual(before);
    applyDecision(memory, decision);
    expect(memory.history).toEqual([{ attempt: 1, providerIndex: 0, errorKind: 'rule-rejected', issueCount: 1 }]);
    expect([memory.lastKind, memory.signatures.length, memory.feedback?.text]).toEqual(['rule-rejected', 1, 'At most 60.']);
  });

  it('deciding twice on the same memory gives the same decision', async () => {
    const memory = startGate(settings([overLimit as ReliabilityRule<unknown>]));
    const judged = valid(90);
    noteAttempt(memory, 1, judged, ZERO_USAGE);
    const first = await decide(memory, 1, judged, ZERO_USAGE, undefined);
    const second = await decide(memory, 1, judged, ZERO_USAGE, undefined);
    expect(second).toEqual(first);
  });

  it('PreCheck returns a wait for the loop to carry out (it reports and sleeps for nothing itself), then admits from the next rule', async () => {
    const pause: PreCheckRule<unknown> = { kind: 'shared-backoff', then: 'continue', backoff: 250, when: () => true };
    const seen: string[] = [];
    const after: PreCheckRule<unknown> = { kind: 'after', then: 'continue', when: () => (seen.push('after'), false) };
    const memory = startGate(settings([], [pause, after]));
    const first = await preCheck(memory, 1, ZERO_USAGE, undefined);
    expect(first).toEqual({ type: 'wait', delayMs: 250, next: 1, events: [{ type: 'reliability.wait', attempt: 1, kind: 'shared-backoff', delayMs: 250 }] });
    expect(seen).toEqual([]);
    expect(await preCheck(memory, 1, ZERO_USAGE, undefined, 1)).toEqual({ type: 'admit' });
    expect(seen).toEqual(['after']);
  });
});
