import { describe, expect, it } from 'vitest';
import { canonicalHash } from './canonical-hash';
import { loopArgumentsHash, loopResultHash } from './loop-hash';

describe('loopArgumentsHash', () => {
  it('reads whitespace runs in a line, surrounding whitespace and null fields as nothing, in nested values too', () => {
    const base = loopArgumentsHash({ q: 'rust async', filter: { tags: ['a b'] } });
    expect(loopArgumentsHash({ q: ' rust \t async ', filter: { tags: ['a  b'], owner: null }, page: null })).toBe(base);
    // Text of several lines keeps its layout: re-indented code is another call.
    expect(loopArgumentsHash({ code: 'if x:\n  y()' })).not.toBe(loopArgumentsHash({ code: 'if x:\n    y()' }));
    expect(loopArgumentsHash({ q: 'rustasync', filter: { tags: ['a b'] } })).not.toBe(base);
    expect(loopArgumentsHash({ q: 'rust async', filter: { tags: ['a b', null] } })).not.toBe(base);
    expect(loopArgumentsHash({ n: 1 })).toBe(loopArgumentsHash(JSON.parse('{"n": 1.0}')));
  });

  it('survives cycles and throwing getters, and a huge argument in linear time', () => {
    const cyclic: Record<string, unknown> = { q: 'x' };
    cyclic.self = cyclic;
    expect(loopArgumentsHash(cyclic)).toMatch(/^[0-9a-f]{16}$/);
    const hostile = Object.defineProperty({}, 'q', { enumerable: true, get: () => { throw new Error('no'); } });
    expect(loopArgumentsHash(hostile)).toBe(canonicalHash(hostile));
    const huge = { text: 'word '.repeat(200_000) };
    const started = performance.now();
    expect(loopArgumentsHash(huge)).toBe(loopArgumentsHash({ text: 'word '.repeat(200_000).trim() }));
    expect(performance.now() - started).toBeLessThan(2_000);
  });
});

describe('loopResultHash', () => {
  it('masks request ids and the time an answer was made, not the data', () => {
    const at = (n: number, extra = '') => `{"hits":["a"],"requestId":"req_${n}","meta":{"trace_id":"${n}","checked_at":"2026-11-28T05:0${n}:00Z","ts":${n}}${extra}}`;
    expect(loopResultHash(at(1))).toBe(loopResultHash(at(2)));
    expect(loopResultHash(at(1, ',"count":1'))).not.toBe(loopResultHash(at(2, ',"count":2')));
    expect(loopResultHash('{"status":"running","updatedAt":"2026-11-28T05:01:00Z"}')).not.toBe(loopResultHash('{"status":"running","updatedAt":"2026-11-28T05:02:00Z"}'));
    expect(loopResultHash('Error [tool-error]: 503 (x-request-id: 7f3a1c; trace id=7)')).toBe(loopResultHash('Error [tool-error]: 503 (x-request-id: 9b20; trace id=14)'));
    expect(loopResultHash('Error [tool-error]: 503 (x-request-id: 7f3a1c)')).not.toBe(loopResultHash('Error [tool-error]: 504 (x-request-id: 7f3a1c)'));
    // A bare date-time or id is data (the next free slot, a created ticket).
    expect(loopResultHash('next slot 2026-11-28T05:01:00Z')).not.toBe(loopResultHash('next slot 2026-11-28T06:01:00Z'));
  });
});
