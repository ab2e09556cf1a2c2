import { describe, expect, it } from 'vitest';
import { mapFinishReason } from './map-finish-reason';
import { mapUsage } from './map-usage';

describe('mapUsage', () => {
  it('input tokens are the uncached ones; cache reads and writes apart; output includes reasoning', () => {
    expect(mapUsage({ inputTokens: { total: 1000, noCache: 100, cacheRead: 800, cacheWrite: 100 }, outputTokens: { total: 50, text: 30, reasoning: 20 } })).toEqual({ inputTokens: 100, outputTokens: 50, cacheReadTokens: 800, cacheWriteTokens: 100 });
  });

  it('a provider that gives only the total: the cached tokens are taken off it', () => {
    expect(mapUsage({ inputTokens: { total: 1000, noCache: undefined, cacheRead: 600, cacheWrite: undefined }, outputTokens: { total: undefined, text: 7, reasoning: 3 } })).toEqual({ inputTokens: 400, outputTokens: 10, cacheReadTokens: 600, cacheWriteTokens: 0 });
  });

  it('missing counts stay missing (the ledger reports and estimates them, never a silent 0); garbage is NaN and never a string', () => {
    expect(mapUsage(undefined)).toEqual({ inputTokens: undefined, outputTokens: undefined, cacheReadTokens: 0, cacheWriteTokens: 0 });
    expect(mapUsage({ inputTokens: { total: undefined }, outputTokens: { total: undefined } })).toMatchObject({ inputTokens: undefined, outputTokens: undefined });
    const garbage = mapUsage({ inputTokens: { total: '12', noCache: '12', cacheRead: {} }, outputTokens: { total: '3' } });
    expect(Object.values(garbage).every((value) => typeof value === 'number')).toBe(true);
    expect(garbage.inputTokens).toBeNaN();
    expect(garbage.outputTokens).toBeNaN();
    expect(garbage.cacheReadTokens).toBeNaN();
  });
});

describe('mapFinishReason', () => {
  it('keeps length distinct, maps a raw refusal, and reads bare strings', () => {
    expect(mapFinishReason({ unified: 'length', raw: 'MAX_TOKENS' })).toBe('length');
    expect(mapFinishReason({ unified: 'stop', raw: 'STOP' })).toBe('stop');
    expect(mapFinishReason({ unified: 'content-filter', raw: 'refusal' })).toBe('refusal');
    expect(mapFinishReason({ unified: 'tool-calls', raw: 'tool_use' })).toBe('tool-calls');
    expect(mapFinishReason('length')).toBe('length');
    expect(mapFinishReason({ unified: 'unknown' })).toBe('other');
    expect(mapFinishReason(null)).toBe('other');
  });
});
