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
