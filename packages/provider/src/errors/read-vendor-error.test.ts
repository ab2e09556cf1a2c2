import { describe, expect, it } from 'vitest';
import { isAbortLike, isInstanceOf, socketFailureKind, statusFailure, vendorErrorKind } from './read-vendor-error';

describe('reading a vendor error', () => {
  it('isInstanceOf survives a Proxy whose getPrototypeOf throws', () => {
    const hostile = new Proxy({}, { getPrototypeOf: () => { throw new Error('no'); } });
    expect(isInstanceOf(hostile, Error)).toBe(false);
    expect(isInstanceOf(new TypeError('x'), Error)).toBe(true);
  });

  it('isAbortLike reads either spelling of an abort', () => {
    expect(isAbortLike({ name: 'AbortError' })).toBe(true);
    expect(isAbortLike({ code: 'ABORT_ERR' })).toBe(true);
    expect(isAbortLike(new Error('aborted'))).toBe(false);
  });

  it('socketFailureKind reads the cause chain: codes, timeouts and fetch failures', () => {
    expect(socketFailureKind({ message: 'x', cause: { code: 'ECONNRESET' } })).toBe('network');
    expect(socketFailureKind({ cause: { cause: { code: 'ETIMEDOUT' } } })).toBe('timeout');
    expect(socketFailureKind({ name: 'TimeoutError' })).toBe('timeout');
    expect(socketFailureKind(new TypeError('terminated'))).toBe('network');
    expect(socketFailureKind(new TypeError('x is not a function'))).toBeUndefined();
    expect(socketFailureKind(null)).toBeUndefined();
  });

  it('vendorErrorKind reads type, status or code, at the top or nested under error', () => {
    expect(vendorErrorKind({ type: 'error', error: { type: 'overloaded_error' } })).toEqual({ errorKind: 'overloaded', type: 'overloaded_error' });
    expect(vendorErrorKind({ error: { error: { type: 'rate_limit_error' } } })).toEqual({ errorKind: 'rate-limit', type: 'rate_limit_error' });
    expect(vendorErrorKind({ error: { code: 429, status: 'RESOURCE_EXHAUSTED' } })).toEqual({ errorKind: 'rate-limit', type: 'RESOURCE_EXHAUSTED' });
    expect(vendorErrorKind({ type: 'toString' })).toBeUndefined();
    expect(vendorErrorKind('boom')).toBeUndefined();
  });

  it('statusFailure reads a context overflow only from a 400 or 413, and the delay a server asked for', () => {
    expect(statusFailure(400, [undefined, 'prompt is too long: 208310 tokens > 200000 maximum'], undefined)).toEqual({ errorKind: 'context-overflow', retryAfterMs: undefined });
    expect(statusFailure(413, ['context_length_exceeded'], {})).toEqual({ errorKind: 'context-overflow', retryAfterMs: undefined });
    expect(statusFailure(429, ['prompt is too long'], { 'retry-after': '7' })).toEqual({ errorKind: 'rate-limit', retryAfterMs: 7000 });
    expect(statusFailure(400, ['invalid schema', 42], { 'retry-after-ms': '250' })).toEqual({ errorKind: 'bad-request', retryAfterMs: 250 });
    expect(statusFailure(529, [], undefined)).toEqual({ errorKind: 'overloaded', retryAfterMs: undefined });
  });
});

