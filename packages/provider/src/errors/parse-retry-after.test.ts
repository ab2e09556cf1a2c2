import { describe, expect, it } from 'vitest';
import { parseRetryAfter } from './parse-retry-after';

describe('parseRetryAfter', () => {
  it('reads retry-after-ms as milliseconds, ahead of retry-after', () => {
    expect(parseRetryAfter(new Headers({ 'retry-after-ms': '1500', 'retry-after': '9' }))).toBe(1500);
  });

  it('reads retry-after as (fractional) seconds', () => {
    expect(parseRetryAfter(new Headers({ 'retry-after': '2' }))).toBe(2000);
    expect(parseRetryAfter(new Headers({ 'retry-after': '0.25' }))).toBe(250);
  });

  it('reads retry-after as an HTTP date relative to now, never negative', () => {
    const now = Date.parse('Sun, 22 Nov 2026 10:00:00 GMT');
    expect(parseRetryAfter(new Headers({ 'retry-after': 'Sun, 22 Nov 2026 10:00:30 GMT' }), now)).toBe(30_000);
    expect(parseRetryAfter(new Headers({ 'retry-after': 'Sun, 22 Nov 2026 09:00:00 GMT' }), now)).toBe(0);
  });

  it('reads a plain record of headers, names in any case', () => {
    expect(parseRetryAfter({ 'Retry-After-Ms': '1500', 'retry-after': '9' })).toBe(1500);
    expect(parseRetryAfter({ 'RETRY-AFTER': '0.03' })).toBe(30);
    expect(parseRetryAfter({ 'content-type': 'application/json' })).toBeUndefined();
  });

  it('gives undefined for missing or unreadable headers', () => {
    expect(parseRetryAfter(undefined)).toBeUndefined();
    expect(parseRetryAfter(null as never)).toBeUndefined();
    expect(parseRetryAfter('retry-after: 3' as never)).toBeUndefined();
    expect(parseRetryAfter(new Headers())).toBeUndefined();
    expect(parseRetryAfter(new Headers({ 'retry-after': 'soon' }))).toBeUndefined();
    expect(parseRetryAfter(new Headers({ 'retry-after-ms': 'x', 'retry-after': '-3' }))).toBeUndefined();
  });
});
