import { describe, expect, it } from 'vitest';
import { KeelError } from '@keel/reliability';
import { TRANSIENT_ERROR_KINDS } from '@keel/reliability/internal';
import { ProviderError } from './provider-error';
import type { ProviderErrorKind } from './provider-error';

describe('ProviderError', () => {
  it('carries kind, status, retry delay, provider and a reduced cause', () => {
    const cause = new Error('429 Too Many Requests');
    const error = new ProviderError({ message: 'rate limited', errorKind: 'rate-limit', status: 429, retryAfterMs: 2000, provider: 'anthropic', cause });
    expect(error).toBeInstanceOf(Error);
    expect(error).toMatchObject({ name: 'ProviderError', message: 'rate limited', errorKind: 'rate-limit', status: 429, retryAfterMs: 2000, provider: 'anthropic', retryable: true });
    expect(error.cause).toEqual({ name: 'Error', message: '429 Too Many Requests' });
    expect(error.cause).not.toBe(cause);
  });

  it('leaves optional fields absent rather than undefined', () => {
    const error = new ProviderError({ message: 'bad', errorKind: 'bad-request', provider: 'openai' });
    expect('status' in error).toBe(false);
    expect('retryAfterMs' in error).toBe(false);
    expect('cause' in error).toBe(false);
  });

  it('is retryable exactly for transient kinds', () => {
    const kinds: ProviderErrorKind[] = ['rate-limit', 'overloaded', 'server-error', 'timeout', 'network', 'auth', 'bad-request', 'bad-response', 'aborted', 'unknown'];
    const retryable = kinds.filter((errorKind) => new ProviderError({ message: '', errorKind, provider: 'p' }).retryable);
    expect(retryable).toEqual(['rate-limit', 'overloaded', 'server-error', 'timeout', 'network', 'bad-response']);
  });

  it('is recognised by its marker, across copies of the package', () => {
    const error = new ProviderError({ message: 'x', errorKind: 'network', provider: 'openai' });
    expect(ProviderError.isInstance(error)).toBe(true);
    expect(ProviderError.isInstance(new Error('x'))).toBe(false);
    expect(ProviderError.isInstance(null)).toBe(false);
    const fromAnotherCopy = { [Symbol.for('keel.error.ProviderError')]: true };
    expect(ProviderError.isInstance(fromAnotherCopy)).toBe(true);
    expect(Symbol.for('keel.error') in error).toBe(true);
  });

  it('is a KeelError, retryable exactly for the one list of transient kinds', () => {
    const error = new ProviderError({ message: 'x', errorKind: 'rate-limit', provider: 'anthropic', cause: new Error('slow down') });
    expect(error).toBeInstanceOf(KeelError);
    expect(KeelError.isKeelError(error)).toBe(true);
    expect(error.cause).toEqual({ name: 'Error', message: 'slow down' });
    const kinds: ProviderErrorKind[] = ['rate-limit', 'overloaded', 'server-error', 'timeout', 'network', 'auth', 'bad-request', 'bad-response', 'aborted', 'unknown'];
    for (const errorKind of kinds) {
      expect(new ProviderError({ message: '', errorKind, provider: 'p' }).retryable).toBe(TRANSIENT_ERROR_KINDS.includes(errorKind));
    }
  });
});
