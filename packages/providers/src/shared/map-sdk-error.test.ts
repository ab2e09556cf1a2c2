import { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from '@anthropic-ai/sdk';
import { describe, expect, it } from 'vitest';
import { ProviderError } from '@keel/provider';
import { mapSdkError } from './map-sdk-error';

const context = {
  provider: 'anthropic',
  label: 'Anthropic',
  classes: { userAbort: APIUserAbortError, connectionTimeout: APIConnectionTimeoutError, connection: APIConnectionError },
};

const apiError = (status: number, headers: Record<string, string> = {}) =>
  APIError.generate(status, { type: 'error', error: { type: 'x', message: 'failed' } }, undefined, new Headers(headers));

describe('mapSdkError', () => {
  it.each([
    [429, 'rate-limit'],
    [529, 'overloaded'],
    [500, 'server-error'],
    [503, 'server-error'],
    [408, 'timeout'],
    [401, 'auth'],
    [403, 'auth'],
    [400, 'bad-request'],
    [404, 'bad-request'],
    [422, 'bad-request'],
  ] as const)('maps HTTP %i to %s, keeping the status and a reduced cause', (status, errorKind) => {
    const cause = apiError(status);
    const error = mapSdkError(cause, context);
    expect(error).toMatchObject({ errorKind, status, provider: 'anthropic' });
    expect(error.cause).toEqual({ name: cause.name, message: cause.message, status });
  });

  it('reads retry-after into retryAfterMs', () => {
    expect(mapSdkError(apiError(429, { 'retry-after': '3' }), context).retryAfterMs).toBe(3000);
    expect(mapSdkError(apiError(529, { 'retry-after-ms': '750' }), context).retryAfterMs).toBe(750);
    expect('retryAfterMs' in mapSdkError(apiError(429), context)).toBe(false);
  });

  it('maps SDK aborts, timeouts and connection failures', () => {
    expect(mapSdkError(new APIUserAbortError(), context).errorKind).toBe('aborted');
    expect(mapSdkError(new APIConnectionTimeoutError(), context).errorKind).toBe('timeout');
    expect(mapSdkError(new APIConnectionError({ cause: new Error('ECONNRESET') }), context).errorKind).toBe('network');
  });

  it('maps stream error events (no status) by their vendor type', () => {
    const overloaded = new APIError(undefined, { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }, undefined, new Headers());
    expect(mapSdkError(overloaded, context).errorKind).toBe('overloaded');
  });

  it('maps a socket that broke under the SDK to network', () => {
    const terminated = new TypeError('terminated', { cause: Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' }) });
    expect(mapSdkError(terminated, context).errorKind).toBe('network');
  });

  it('classifies socket codes by the one shared list: UND_ERR_CLOSED is network, ETIMEDOUT a timeout', () => {
    const closed = new TypeError('terminated', { cause: Object.assign(new Error('closed'), { code: 'UND_ERR_CLOSED' }) });
    expect(mapSdkError(closed, context).errorKind).toBe('network');
    const timedOut = Object.assign(new Error('connect ETIMEDOUT 10.0.0.1:443'), { code: 'ETIMEDOUT' });
    expect(mapSdkError(timedOut, context).errorKind).toBe('timeout');
  });

  it('reports every failure after the signal aborted as aborted, with the reason as cause (reduced)', () => {
    const controller = new AbortController();
    controller.abort(new Error('user cancelled'));
    const dropped = new ProviderError({ message: 'stream ended early', errorKind: 'network', provider: 'anthropic' });
    const error = mapSdkError(dropped, { ...context, signal: controller.signal });
    expect(error.errorKind).toBe('aborted');
    expect(error.cause).toEqual({ name: 'Error', message: 'user cancelled' });
  });

  it('passes a ProviderError through and maps anything else to unknown', () => {
    const own = new ProviderError({ message: 'x', errorKind: 'network', provider: 'anthropic' });
    expect(mapSdkError(own, context)).toBe(own);
    expect(mapSdkError(new Error('something odd'), context)).toMatchObject({ errorKind: 'unknown', retryable: false });
  });
});
