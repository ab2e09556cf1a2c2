import { describe, expect, it } from 'vitest';
import { kindFromErrorType } from './kind-from-error-type';

describe('kindFromErrorType', () => {
  it('reads Anthropic and OpenAI error types', () => {
    expect(kindFromErrorType('rate_limit_error')).toBe('rate-limit');
    expect(kindFromErrorType('rate_limit_exceeded')).toBe('rate-limit');
    expect(kindFromErrorType('overloaded_error')).toBe('overloaded');
    expect(kindFromErrorType('server_error')).toBe('server-error');
    expect(kindFromErrorType('authentication_error')).toBe('auth');
    expect(kindFromErrorType('invalid_request_error')).toBe('bad-request');
  });

  it("reads Google's RPC statuses", () => {
    expect(kindFromErrorType('RESOURCE_EXHAUSTED')).toBe('rate-limit');
    expect(kindFromErrorType('UNAVAILABLE')).toBe('overloaded');
    expect(kindFromErrorType('DEADLINE_EXCEEDED')).toBe('timeout');
    expect(kindFromErrorType('PERMISSION_DENIED')).toBe('auth');
  });

  it('knows no other type, not even names every object inherits', () => {
    for (const type of ['error', 'Rate_Limit_Error', '', 'toString', 'constructor', '__proto__', 'hasOwnProperty']) {
      expect(kindFromErrorType(type)).toBeUndefined();
    }
  });
});
