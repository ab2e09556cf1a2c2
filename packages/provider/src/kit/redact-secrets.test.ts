import { describe, expect, it } from 'vitest';
import { REDACTED, redactSecrets, secretsOf } from './redact-secrets';

describe('secretsOf', () => {
  it('keeps strings of 8 characters or more, once each, longest first', () => {
    expect(secretsOf(['sk-short', 'sk-much-longer-key', undefined, 42, 'tiny', 'sk-short'])).toEqual(['sk-much-longer-key', 'sk-short']);
  });
});

describe('redactSecrets', () => {
  it('replaces every occurrence, a key containing another whole', () => {
    const secrets = secretsOf(['sk-abcdefgh', 'sk-abcdefgh-extended']);
    expect(redactSecrets('a sk-abcdefgh-extended b sk-abcdefgh c sk-abcdefgh', secrets)).toBe(`a ${REDACTED} b ${REDACTED} c ${REDACTED}`);
  });

  it('leaves text without secrets as it is', () => {
    expect(redactSecrets('nothing here', ['sk-abcdefgh'])).toBe('nothing here');
  });
});
