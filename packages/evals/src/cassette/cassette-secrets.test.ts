import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ModelProvider, ModelRequest } from '@keel/core';
import { scriptedModel } from '@keel/core/test';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cassette } from './cassette';

let path: string;
beforeEach(() => {
  path = join(mkdtempSync(join(tmpdir(), 'keel-cassette-')), 'calls.json');
});
const saved = process.env['KEEL_TEST_SERVICE_TOKEN'];
afterEach(() => {
  if (saved === undefined) delete process.env['KEEL_TEST_SERVICE_TOKEN'];
  else process.env['KEEL_TEST_SERVICE_TOKEN'] = saved;
});

const file = () => readFileSync(path, 'utf8');

describe('cassette() keeps secrets out of the file', () => {
  it('removes credential-named fields and headers a request carries, and key-shaped text anywhere', async () => {
    const request = {
      model: 'claude-sonnet-4-6',
      messages: [{ role: 'user', content: 'My key is sk-ant-api03-AbCdEfGhIjKlMnOpQrStUv and my GitHub token ghp_0123456789abcdefghijABCDEFGHIJ' }],
      // Fields a provider-specific extension may add to a request.
      headers: { 'x-api-key': 'plain-header-value-1234', 'anthropic-beta': 'tools-2024' },
      providerOptions: { apiKey: 'opaque-credential-value', authorization: 'Bearer abc.def.ghi-jkl' },
    } as unknown as ModelRequest;
    await cassette(scriptedModel('Your key sk-proj-ZyXwVuTsRqPoNmLkJiHgFeDcBa is visible; auth Bearer eyJhbGciOi.payload.sig'), { path, mode: 'record' }).generate(request, {});
    const text = file();
    for (const secret of ['sk-ant-api03-AbCdEfGhIjKlMnOpQrStUv', 'ghp_0123456789', 'plain-header-value-1234', 'tools-2024', 'opaque-credential-value', 'abc.def.ghi-jkl', 'sk-proj-ZyXwVuTsRqPoNmLkJiHgFeDcBa', 'eyJhbGciOi']) expect(text).not.toContain(secret);
    expect(text).toContain('[redacted]');
    // The same request replays: it is matched after the same redaction.
    expect((await cassette(scriptedModel('unused'), { path, mode: 'replay' }).generate(request, {})).text).toContain('Your key [redacted] is visible');
  });

  it('removes every credential shape from prompts, answers and errors: fine-grained and classic tokens, temporary AWS keys, lower-case bearer, PEM keys, Stripe, JWTs', async () => {
    // Built from parts, so no file of this repository holds a credential-shaped string.
    const join = (...parts: string[]) => parts.join('');
    const pem = join('-----BEGIN ', 'RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA7nVxQm2vX0a\nq8dZk3YxR0w1Hh==\n-----END ', 'RSA PRIVATE KEY-----');
    const secrets = {
      githubFineGrained: join('github_', 'pat_', '11ABCDEFG0', 'a'.repeat(20), '_', 'B'.repeat(40)),
      githubClassic: join('gh', 'p_', 'A1b2C3d4'.repeat(5)),
      awsTemporary: join('AS', 'IA', 'Q3EGRFWJ5KZ7XN2M'),
      awsLongTerm: join('AK', 'IA', 'IOSFODNN7EXAMPLE'),
      awsSecret: join('wJalrXUtnFEMI/K7MDENG/', 'bPxRfiCYEXAMPLEKEY'),
      bearerLower: join('tok', '9f8e7d6c5b4a3210'),
      bearerUpper: join('ABCD', '1234efgh5678'),
      stripeLive: join('sk', '_live_', '51HxYz'.repeat(5)),
      stripeRestricted: join('rk', '_live_', '51HxYz'.repeat(5)),
      openai: join('sk', '-proj-', 'Ab1Cd2Ef3Gh4Ij5Kl6Mn7Op8'),
      anthropic: join('sk', '-ant-api03-', 'Zz9Yy8Xx7Ww6'),
      slack: join('xo', 'xb-', '1234567890-abcdefABCDEF'),
      google: join('AI', 'za', 'SyA1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q'),
      jwt: join('eyJ', 'hbGciOiJIUzI1NiJ9', '.', 'eyJ', 'zdWIiOiIxMjM0NTY3ODkwIn0', '.', 'dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U'),
    };
    const prompt = [
      `fine-grained ${secrets.githubFineGrained}, classic ${secrets.githubClassic}`,
      `aws ${secrets.awsTemporary} and ${secrets.awsLongTerm}, aws_secret_access_key = ${secrets.awsSecret}`,
      `curl -H "authorization: bearer ${secrets.bearerLower}" and BEARER ${secrets.bearerUpper}`,
      `stripe ${secrets.stripeLive} ${secrets.stripeRestricted}; openai ${secrets.openai}; anthropic ${secrets.anthropic}`,
      `slack ${secrets.slack}; google ${secrets.google}; session ${secrets.jwt}`,
      `deploy key:\n${pem}\nend of key`,
      'Basic information about the bearer instrument stays.',
    ].join('\n');
    const inner = scriptedModel((request) => {
      const said = String(request.messages[0]?.content);
      if (said === 'fail') return Object.assign(new Error(`403 for ${secrets.githubFineGrained} / ${secrets.awsTemporary}`), { status: 403 });
      return `You sent: ${said}`;
    });
    const recorder = cassette(inner, { path, mode: 'record' });
    await recorder.generate({ model: 'm', messages: [{ role: 'user', content: prompt }] }, {});
    await expect(recorder.generate({ model: 'm', messages: [{ role: 'user', content: 'fail' }] }, {})).rejects.toThrow();
    const text = file();
    for (const [name, secret] of Object.entries(secrets)) expect(text, name).not.toContain(secret);
    for (const piece of ['MIIEowIBAAKCAQEA', 'q8dZk3YxR0w1Hh', 'PRIVATE KEY']) expect(text).not.toContain(piece);
    expect(text).toContain('bearer [redacted]');
    expect(text).toContain('end of key');
    expect(text).toContain('Basic information about the bearer instrument stays.');
    // The recording still replays the same prompt: requests are matched after the same redaction.
    expect((await cassette(scriptedModel('unused'), { path, mode: 'replay' }).generate({ model: 'm', messages: [{ role: 'user', content: prompt }] }, {})).text).toContain('fine-grained [redacted]');
  });

  it('removes the given secrets, the environment\'s key-like variables and what the provider redacts, from requests, answers and errors', async () => {
    process.env['KEEL_TEST_SERVICE_TOKEN'] = 'env-token-7f3a9c21';
    const inner = scriptedModel((request) => {
      const said = String(request.messages[0]?.content);
      if (said.includes('fail')) return Object.assign(new Error('401 invalid x-api-key: provider-own-secret-99 rejected'), { status: 401 });
      return `echo: ${said} / provider-own-secret-99`;
    });
    const provider: ModelProvider = { ...inner, redact: (text) => text.split('provider-own-secret-99').join('[redacted]') };
    const recorder = cassette(provider, { path, mode: 'record', secrets: ['customer-password-123'] });
    await recorder.generate({ model: 'm', messages: [{ role: 'user', content: 'customer-password-123 and env-token-7f3a9c21' }] }, {});
    await expect(recorder.generate({ model: 'm', messages: [{ role: 'user', content: 'fail' }] }, {})).rejects.toThrow('provider-own-secret-99');
    const text = file();
    for (const secret of ['customer-password-123', 'env-token-7f3a9c21', 'provider-own-secret-99']) expect(text).not.toContain(secret);
    expect(text).toContain('401 invalid x-api-key: [redacted] rejected');
  });

  it('never writes a provider\'s configuration: a cassette stores requests and answers only', async () => {
    const apiKey = 'sk-ant-api03-ConfiguredKeyNeverSent00';
    const inner = scriptedModel('fine');
    const provider = Object.assign(inner, { apiKey, options: { apiKey, baseURL: 'http://127.0.0.1:9' } });
    await cassette(provider, { path, mode: 'record' }).generate({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }, {});
    expect(file()).not.toContain('ConfiguredKeyNeverSent');
  });
});
