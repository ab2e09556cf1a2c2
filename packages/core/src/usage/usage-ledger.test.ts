import { describe, expect, it } from 'vitest';
import { sanitizeUsage } from './usage-ledger';
import { UsageLedger } from './usage-ledger';

const good = { inputTokens: 10, outputTokens: 5, cacheReadTokens: 0, cacheWriteTokens: 1 };

describe('sanitizeUsage', () => {
  it('passes valid usage through untouched', () => {
    expect(sanitizeUsage(good)).toEqual({ usage: good, invalid: [] });
    expect(sanitizeUsage(good).usage).toBe(good);
  });

  it.each([
    ['negative', -5, '-5'],
    ['NaN', Number.NaN, 'NaN'],
    ['Infinity', Number.POSITIVE_INFINITY, 'Infinity'],
    ['a string', '12', 'string'],
    ['null', null, 'null'],
    ['missing', undefined, 'undefined'],
    ['an object', { n: 1 }, 'object'],
  ])('records %s as 0 and names the field', (_label, value, received) => {
    const result = sanitizeUsage({ ...good, outputTokens: value });
    expect(result.usage).toEqual({ ...good, outputTokens: 0 });
    expect(result.invalid).toEqual([{ field: 'outputTokens', received }]);
  });

  it('treats a missing usage object as all zeros', () => {
    expect(sanitizeUsage(undefined)).toEqual({ usage: { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 }, invalid: [{ field: 'usage', received: 'undefined' }] });
  });
});

describe('UsageLedger with bad counts', () => {
  it('never lets a total go negative, NaN or string', () => {
    const ledger = new UsageLedger({ m: { inputPerMTok: 1, outputPerMTok: 1 } });
    const attempt = (usage: ReturnType<typeof ledger.price>) => ({ step: 1, attempt: 1, purpose: 'step' as const, providerIndex: 0, status: 'valid' as const, errorKind: 'ok' as const, issues: [], elapsedMs: 0, usage, feedbackSent: false });
    for (const bad of [-1000, Number.NaN, '7' as unknown as number, Number.POSITIVE_INFINITY]) {
      ledger.record(attempt(ledger.price('m', { ...good, inputTokens: bad })));
    }
    ledger.record(attempt(ledger.price('m', good)));
    const usage = ledger.snapshot();
    expect(usage).toMatchObject({ inputTokens: 10, outputTokens: 25, cacheWriteTokens: 5, totalTokens: 40, modelCalls: 5 });
    expect(Number.isFinite(usage.costUsd)).toBe(true);
    expect(usage.costUsd).toBeGreaterThan(0);
  });
});
