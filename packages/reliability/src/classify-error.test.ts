import { describe, expect, it } from 'vitest';
import { classifyError, kindFromNetworkCode, kindFromStatus, NETWORK_ERROR_CODES } from './classify-error';
import { AbortedError } from './errors/aborted-error';

describe('kindFromStatus', () => {
  it.each([
    [429, 'rate-limit'],
    [529, 'overloaded'],
    [408, 'timeout'],
    [401, 'auth'],
    [403, 'auth'],
    [500, 'server-error'],
    [502, 'server-error'],
    [503, 'server-error'],
    [400, 'bad-request'],
    [404, 'bad-request'],
    [422, 'bad-request'],
    [200, 'unknown'],
  ] as const)('maps %i to %s', (status, kind) => {
    expect(kindFromStatus(status)).toBe(kind);
  });
});

describe('classifyError', () => {
  it('maps an HTTP status on the thrown value', () => {
    expect(classifyError(Object.assign(new Error('Too many requests'), { status: 429 }))).toEqual({ errorKind: 'rate-limit' });
    expect(classifyError({ status: 401, message: 'invalid api key' })).toEqual({ errorKind: 'auth' });
    expect(classifyError({ status: 400 })).toEqual({ errorKind: 'bad-request' });
    expect(classifyError({ status: 503 })).toEqual({ errorKind: 'server-error' });
  });

  it('keeps a retryAfterMs next to a status', () => {
    expect(classifyError({ status: 429, retryAfterMs: 2_000 })).toEqual({ errorKind: 'rate-limit', retryAfterMs: 2_000 });
  });

  it('passes a declared errorKind through, with its retryAfterMs', () => {
    expect(classifyError({ errorKind: 'rate-limit', retryAfterMs: 120_000 })).toEqual({ errorKind: 'rate-limit', retryAfterMs: 120_000 });
    expect(classifyError({ errorKind: 'overloaded' })).toEqual({ errorKind: 'overloaded' });
  });

  it('prefers a declared errorKind over the status', () => {
    expect(classifyError({ errorKind: 'auth', status: 500 })).toEqual({ errorKind: 'auth' });
  });

  it('ignores an errorKind it does not know and classifies the rest', () => {
    expect(classifyError({ errorKind: 'cosmic-rays', status: 503 })).toEqual({ errorKind: 'server-error' });
    expect(classifyError({ errorKind: 'cosmic-rays' })).toEqual({ errorKind: 'unknown' });
  });

  it('ignores a retryAfterMs that is not a finite number', () => {
    expect(classifyError({ errorKind: 'rate-limit', retryAfterMs: Number.POSITIVE_INFINITY })).toEqual({ errorKind: 'rate-limit' });
    expect(classifyError({ errorKind: 'rate-limit', retryAfterMs: '30' })).toEqual({ errorKind: 'rate-limit' });
  });

  it('classifies aborts as aborted', () => {
    const abort = new Error('This operation was aborted');
    abort.name = 'AbortError';
    expect(classifyError(abort)).toEqual({ errorKind: 'aborted' });
    expect(classifyError(new DOMException('aborted', 'AbortError'))).toEqual({ errorKind: 'aborted' });
    expect(classifyError({ code: 'ABORT_ERR' })).toEqual({ errorKind: 'aborted' });
    expect(classifyError(new AbortedError())).toEqual({ errorKind: 'aborted' });
  });

  it('classifies an abort as aborted even when it carries a status', () => {
    const abort = Object.assign(new Error('aborted'), { name: 'AbortError', status: 500 });
    expect(classifyError(abort)).toEqual({ errorKind: 'aborted' });
  });

  it('classifies TimeoutError as timeout', () => {
    expect(classifyError(new DOMException('timed out', 'TimeoutError'))).toEqual({ errorKind: 'timeout' });
  });

  it('classifies socket errors as network, on the error or its cause', () => {
    expect(classifyError(Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }))).toEqual({ errorKind: 'network' });
    expect(classifyError(new TypeError('fetch failed', { cause: { code: 'ECONNREFUSED' } }))).toEqual({ errorKind: 'network' });
    expect(classifyError({ code: 'ENOTFOUND' })).toEqual({ errorKind: 'network' });
    expect(classifyError({ code: 'ETIMEDOUT' })).toEqual({ errorKind: 'timeout' });
  });

  it('classifies anything else as unknown', () => {
    expect(classifyError(new Error('boom'))).toEqual({ errorKind: 'unknown' });
    expect(classifyError({ code: 'EWHATEVER' })).toEqual({ errorKind: 'unknown' });
    expect(classifyError('a string')).toEqual({ errorKind: 'unknown' });
    expect(classifyError(null)).toEqual({ errorKind: 'unknown' });
    expect(classifyError(undefined)).toEqual({ errorKind: 'unknown' });
  });
});

describe('classifyError and errors that are not retryable', () => {
  it('never treats an error marked retryable: false as transient, whatever kind it names', () => {
    expect(classifyError({ errorKind: 'rate-limit', retryable: false })).toEqual({ errorKind: 'unknown' });
    expect(classifyError({ errorKind: 'auth', retryable: false })).toEqual({ errorKind: 'auth' });
    expect(classifyError({ errorKind: 'rate-limit', retryable: true, retryAfterMs: 5 })).toEqual({ errorKind: 'rate-limit', retryAfterMs: 5 });
  });
});

describe('the one list of network error codes', () => {
  it('holds the codes every package classifies with: ETIMEDOUT is a timeout, the rest network faults', () => {
    expect([...NETWORK_ERROR_CODES].sort()).toEqual(['EAI_AGAIN', 'ECONNREFUSED', 'ECONNRESET', 'ENOTFOUND', 'EPIPE', 'ETIMEDOUT', 'UND_ERR_CLOSED', 'UND_ERR_SOCKET']);
    expect(kindFromNetworkCode('ETIMEDOUT')).toBe('timeout');
    expect(kindFromNetworkCode('UND_ERR_CLOSED')).toBe('network');
    expect(kindFromNetworkCode('EACCES')).toBeUndefined();
    expect(kindFromNetworkCode(42)).toBeUndefined();
    expect(classifyError(Object.assign(new Error('closed'), { code: 'UND_ERR_CLOSED' }))).toEqual({ errorKind: 'network' });
  });
});
