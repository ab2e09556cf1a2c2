import { describe, expect, it } from 'vitest';
import { REDACTED, secretRedactor, secretsFromEnvironment } from './redact-secrets';

const line = (text: string) => `${JSON.stringify({ event: 'model.content', payload: { output: text } })}\n`;

describe('secretRedactor', () => {
  const redact = secretRedactor(['my-db-password-1', 'quote"and\\slash']);

  it('replaces credential shapes and the secrets given, as they appear inside JSON strings', () => {
    const text = line('keys: sk-ant-api03-AbCdEfGh12345678 sk-proj-ABCDEFGHIJKLMNOPQRSTUV AIzaSyA1234567890abcdefghijklmnopqrstu ghp_0123456789abcdefghijABCDEFGHIJ AKIAABCDEFGHIJKLMNOP, Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.payload, my-db-password-1, quote"and\\slash');
    const out = redact(text);
    for (const secret of ['sk-ant-api03', 'sk-proj-ABC', 'AIzaSy', 'ghp_0123', 'AKIAABCD', 'eyJhbGci', 'my-db-password', 'quote\\"and']) expect(out).not.toContain(secret);
    expect(out.split(REDACTED).length - 1).toBe(8);
    expect(JSON.parse(out)).toMatchObject({ event: 'model.content' });
  });

  it('replaces a private key inside one JSON string, and never joins two lines', () => {
    const key = '-----BEGIN RSA PRIVATE KEY-----\nMIIBOgIBAAJBAK\n-----END RSA PRIVATE KEY-----';
    const out = redact(line(`here: ${key}`) + line('next line stays'));
    expect(out).not.toContain('MIIBOgIBAAJBAK');
    expect(out.split('\n')).toHaveLength(3);
    expect(JSON.parse(out.split('\n')[1] as string)).toMatchObject({ payload: { output: 'next line stays' } });
  });

  it('leaves ordinary text alone, and takes only long secret-named variables from the environment', () => {
    expect(redact(line('a skiff, ghosts, the bearer of news, 42'))).toBe(line('a skiff, ghosts, the bearer of news, 42'));
    // Keel's own `ask-model` is no key; a key glued to a word still is.
    expect(redact(line('next: ask-model, task-1'))).toBe(line('next: ask-model, task-1'));
    expect(redact(line('tokensk-abcdefghijklmnopqrstuvwx'))).toBe(line(`token${REDACTED}`));
    expect(secretsFromEnvironment({ OPENAI_API_KEY: 'sk-1234567890', DB_PASSWORD: 'hunter22', HOME: '/root/secret-home', SHORT_TOKEN: 'abc' })).toEqual(['sk-1234567890', 'hunter22']);
  });
});
