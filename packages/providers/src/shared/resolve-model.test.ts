import { describe, expect, it } from 'vitest';
import { ProviderError } from '@keel/provider';
import { resolveModel } from './resolve-model';

describe('resolveModel', () => {
  it("returns the request's model id", () => {
    expect(resolveModel('gpt-4o-mini', 'openai')).toBe('gpt-4o-mini');
  });

  it('refuses a request without a model id as a bad request, never retried', () => {
    const error = (() => {
      try {
        return resolveModel(' ', 'anthropic');
      } catch (caught) {
        return caught;
      }
    })();
    expect(ProviderError.isInstance(error) && [error.errorKind, error.retryable]).toEqual(['bad-request', false]);
  });
});
