import type { AttemptRecord } from '@keel/core/internal';
import { describe, expect, it } from 'vitest';
import { attemptsOfError, costOfFailure, failureKindOf, reliabilityOf } from './run-figures';

const attempt = (overrides: Partial<AttemptRecord>): AttemptRecord => ({
  step: 1, attempt: 1, purpose: 'step', providerIndex: 0, status: 'valid', errorKind: 'ok', issues: [], elapsedMs: 1,
  usage: { inputTokens: 10, outputTokens: 5, cacheReadTokens: 2, cacheWriteTokens: 0, costUsd: 0.001 }, feedbackSent: false, ...overrides,
});

describe('run figures', () => {
  it('count re-asks, tool re-asks, transient failures, patches and continuations from the attempt records', () => {
    const attempts = [
      attempt({ status: 'error', errorKind: 'overloaded' }),
      attempt({ attempt: 2, status: 'invalid', errorKind: 'schema-fail' }),
      attempt({ attempt: 3, feedbackSent: true, via: 'patch' }),
      attempt({ step: 2, purpose: 'tool-re-ask', feedbackSent: true }),
      attempt({ step: 3, status: 'invalid', errorKind: 'truncated' }),
      attempt({ step: 3, attempt: 2, via: 'continuation' }),
    ];
    expect(reliabilityOf(attempts, undefined, 'schema-no-progress')).toEqual({
      firstPassValid: false, reAsks: 2, toolReAsks: 1, transientFailures: 1, repairs: [], coercions: [], patches: 1, continuations: 1, loop: true,
      attemptFailures: { overloaded: 1, 'schema-fail': 1, truncated: 1 },
    });
    expect(reliabilityOf([attempt({})], undefined, 'schema-retry-exhausted').loop).toBe(false);
    expect(reliabilityOf([attempt({})], undefined, 'action-loop').loop).toBe(true);
  });

  it('sum a failed run\'s attempts as its ledger, and fall back to its run.end event', () => {
    expect(costOfFailure([attempt({}), attempt({ usage: { inputTokens: 1, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 3 } })], undefined)).toEqual({ calls: 2, tokens: { input: 11, output: 6, cacheRead: 2, cacheWrite: 3, total: 22 }, costUsd: 0.001 });
    expect(costOfFailure([], { inputTokens: 4, outputTokens: 2, cacheReadTokens: 0, cacheWriteTokens: 0, modelCalls: 1 })).toEqual({ calls: 1, tokens: { input: 4, output: 2, cacheRead: 0, cacheWrite: 0, total: 6 }, costUsd: null });
    expect(costOfFailure(undefined, undefined).calls).toBe(0);
  });

  it('file a failed run under its rule, max-steps, its error kind or its name, reading hostile errors safely', () => {
    expect(failureKindOf({ kind: 'schema-stuck-loop', errorKind: 'schema-fail' })).toBe('schema-stuck-loop');
    expect(failureKindOf({ name: 'MaxStepsExceededError' })).toBe('max-steps');
    expect(failureKindOf({ name: 'AbortedError', errorKind: 'aborted' })).toBe('aborted');
    expect(failureKindOf(new TypeError('x'))).toBe('TypeError');
    const hostile = new Proxy({}, { get: () => { throw new Error('trap'); } });
    expect(failureKindOf(hostile)).toBe('unknown');
    expect(attemptsOfError(hostile)).toBeUndefined();
    expect(attemptsOfError({ partial: { attempts: [attempt({})] } })).toHaveLength(1);
  });
});
