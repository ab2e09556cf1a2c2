import { APICallError, InvalidResponseDataError, JSONParseError, LoadAPIKeyError, TypeValidationError, UnsupportedFunctionalityError } from '@ai-sdk/provider';
import { describe, expect, it } from 'vitest';
import { ProviderError } from '@keel/provider';
import { mapAiSdkError } from './map-error';

const context = { provider: 'test.chat', secrets: ['sk-secret-0123456789'] };
const apiError = (fields: Partial<ConstructorParameters<typeof APICallError>[0]>) =>
  new APICallError({ message: 'failed', url: 'http://127.0.0.1/v1', requestBodyValues: { prompt: 'the whole conversation' }, ...fields });

describe('mapAiSdkError', () => {
  it('maps HTTP statuses to kinds, with the server delay', () => {
    const rateLimited = mapAiSdkError(apiError({ statusCode: 429, responseHeaders: { 'retry-after-ms': '250' } }), context);
    expect([rateLimited.errorKind, rateLimited.retryAfterMs, rateLimited.status, rateLimited.retryable]).toEqual(['rate-limit', 250, 429, true]);
    expect(mapAiSdkError(apiError({ statusCode: 529 }), context).errorKind).toBe('overloaded');
    expect(mapAiSdkError(apiError({ statusCode: 500 }), context).errorKind).toBe('server-error');
    expect(mapAiSdkError(apiError({ statusCode: 403 }), context).errorKind).toBe('auth');
    expect(mapAiSdkError(apiError({ statusCode: 422 }), context).errorKind).toBe('bad-request');
    expect(mapAiSdkError(apiError({ statusCode: 408 }), context).errorKind).toBe('timeout');
  });

  it('reads Retry-After in seconds and as an HTTP date, whatever the header case', () => {
    expect(mapAiSdkError(apiError({ statusCode: 429, responseHeaders: { 'Retry-After': '2' } }), context).retryAfterMs).toBe(2000);
    const date = new Date(Date.now() + 60_000).toUTCString();
    const fromDate = mapAiSdkError(apiError({ statusCode: 503, responseHeaders: { 'retry-after': date } }), context).retryAfterMs ?? 0;
    expect(fromDate).toBeGreaterThan(55_000);
    expect(fromDate).toBeLessThanOrEqual(60_000);
    expect(mapAiSdkError(apiError({ statusCode: 429, responseHeaders: { 'retry-after': 'soon' } }), context).retryAfterMs).toBeUndefined();
    expect(mapAiSdkError(apiError({ statusCode: 429, responseHeaders: { 'retry-after': '-5' } }), context).retryAfterMs).toBeUndefined();
  });

  it("honours isRetryable both ways: false stops a transient status, true on a 409 makes it a server error", () => {
    const quota = mapAiSdkError(apiError({ statusCode: 429, isRetryable: false }), context);
    expect([quota.errorKind, quota.retryable]).toEqual(['rate-limit', false]);
    const conflict = mapAiSdkError(apiError({ statusCode: 409 }), context);
    expect([conflict.errorKind, conflict.retryable]).toEqual(['server-error', true]);
    expect(mapAiSdkError(apiError({ statusCode: 409, isRetryable: false }), context).errorKind).toBe('bad-request');
  });

  it('a response that did not parse is bad-response; no response is network', () => {
    expect(mapAiSdkError(apiError({ statusCode: 200, isRetryable: false }), context).errorKind).toBe('bad-response');
    const refused = apiError({ message: 'Cannot connect to API: connect ECONNREFUSED', cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }), isRetryable: true });
    expect(mapAiSdkError(refused, context).errorKind).toBe('network');
    expect(mapAiSdkError(apiError({ cause: Object.assign(new Error('timed out'), { code: 'ETIMEDOUT' }) }), context).errorKind).toBe('timeout');
  });

  it("maps the spec's other errors: malformed answers are bad-response, an unsupported request bad-request, a missing key auth", () => {
    expect(mapAiSdkError(new InvalidResponseDataError({ data: {} }), context).errorKind).toBe('bad-response');
    expect(mapAiSdkError(new JSONParseError({ text: '{', cause: new Error('x') }), context).errorKind).toBe('bad-response');
    expect(mapAiSdkError(new TypeValidationError({ value: {}, cause: new Error('x') }), context).errorKind).toBe('bad-response');
    expect(mapAiSdkError(new UnsupportedFunctionalityError({ functionality: 'audio' }), context).errorKind).toBe('bad-request');
    expect(mapAiSdkError(new LoadAPIKeyError({ message: 'no key' }), context).errorKind).toBe('auth');
  });

  it('vendor error objects of a stream map by type or RPC status', () => {
    expect(mapAiSdkError({ type: 'overloaded_error', message: 'Overloaded' }, context).errorKind).toBe('overloaded');
    expect(mapAiSdkError({ error: { code: 429, status: 'RESOURCE_EXHAUSTED', message: 'quota' } }, context).errorKind).toBe('rate-limit');
    expect(mapAiSdkError({ error: { type: 'server_error', message: 'The server had an error' } }, context).errorKind).toBe('server-error');
    expect(mapAiSdkError({ type: 'constructor', message: 'x' }, context).errorKind).toBe('unknown');
  });

  it('an aborted signal wins over anything', () => {
    const controller = new AbortController();
    controller.abort();
    expect(mapAiSdkError(apiError({ statusCode: 500 }), { ...context, signal: controller.signal }).errorKind).toBe('aborted');
    expect(mapAiSdkError(new DOMException('aborted', 'AbortError'), context).errorKind).toBe('aborted');
  });

  it('keeps neither the request body nor the key: only name, message, status and request id', () => {
    const error = mapAiSdkError(apiError({ statusCode: 400, message: 'bad key sk-secret-0123456789', responseHeaders: { 'x-request-id': 'req_42' }, responseBody: 'sk-secret-0123456789' }), context);
    expect(error.cause).toEqual({ name: 'AI_APICallError', message: 'bad key [redacted]', status: 400, requestId: 'req_42' });
    const text = JSON.stringify({ message: error.message, cause: error.cause });
    expect(text).not.toContain('sk-secret');
    expect(text).not.toContain('the whole conversation');
  });

  it('a hostile thrown value (throwing getters, a Proxy) still maps, to unknown', () => {
    const hostile = new Proxy({}, { get: () => { throw new Error('trap'); }, has: () => { throw new Error('trap'); }, getPrototypeOf: () => { throw new Error('trap'); } });
    const error = mapAiSdkError(hostile, context);
    expect(ProviderError.isInstance(error) && error.errorKind).toBe('unknown');
    expect(mapAiSdkError(Symbol('odd'), context).errorKind).toBe('unknown');
  });
});
