import { describe, expect, it } from 'vitest';
import type { ReliabilityScope } from '../gate/scope';
import { strictOutputRules } from './strict-output-rules';

const scopeOf = (errorKind: ReliabilityScope['errorKind'], history: ReliabilityScope['history'] = []): ReliabilityScope =>
  ({ phase: 'post-decide', purpose: 'final-answer', attempt: 1, providerIndex: 0, providerCount: 1, errorKind, latencyMs: 0, validationErrorHistory: ['a|type'], history, usage: { step: { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 }, run: { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 } }, retries: 0 }) as ReliabilityScope;

async function decide(rules: ReturnType<typeof strictOutputRules>, scope: ReliabilityScope) {
  for (const rule of rules) if (await rule.when(scope)) return rule.kind;
  return undefined;
}

describe('strictOutputRules', () => {
  it('retries schema and parse failures within the budget, then stops as exhausted', async () => {
    const rules = strictOutputRules({ maxRetries: 1 });
    expect(await decide(rules, scopeOf('schema-fail', [{ attempt: 1, providerIndex: 0, errorKind: 'schema-fail', issueCount: 1 }]))).toBe('schema-retry');
    const twice = [
      { attempt: 1, providerIndex: 0, errorKind: 'schema-fail' as const, issueCount: 1 },
      { attempt: 2, providerIndex: 0, errorKind: 'parse-fail' as const, issueCount: 1 },
    ];
    expect(await decide(rules, scopeOf('parse-fail', twice))).toBe('schema-retry-exhausted');
  });

  it('names a failure kind left out of retryOn as not retried, not as exhausted', async () => {
    const rules = strictOutputRules({ retryOn: ['schema'] });
    expect(await decide(rules, scopeOf('parse-fail', [{ attempt: 1, providerIndex: 0, errorKind: 'parse-fail', issueCount: 1 }]))).toBe('schema-not-retried');
  });
});
