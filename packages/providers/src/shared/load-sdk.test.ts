import { KeelError } from '@keel/provider';
import { describe, expect, it } from 'vitest';
import { MissingSdkError } from '../errors/missing-sdk-error';
import { loadSdk } from './load-sdk';

const about = { sdk: 'openai', range: '^6.30.0', provider: 'openai' };

describe('loadSdk', () => {
  it('returns the loaded module', async () => {
    await expect(loadSdk(async () => ({ ok: true }), about)).resolves.toEqual({ ok: true });
  });

  it('turns a missing package into a MissingSdkError naming the package and the install command', async () => {
    const missing = Object.assign(new Error("Cannot find package 'openai' imported from /app/x.js"), { code: 'ERR_MODULE_NOT_FOUND' });
    const error = await loadSdk(() => Promise.reject(missing), about).catch((caught: unknown) => caught);
    expect(MissingSdkError.isInstance(error)).toBe(true);
    expect(KeelError.isKeelError(error)).toBe(true);
    expect(error).toMatchObject({ name: 'MissingSdkError', sdk: 'openai', provider: 'openai', retryable: false, errorKind: 'bad-request', cause: missing });
    expect((error as Error).message).toContain('npm install openai@"^6.30.0"');
  });

  it('recognises the CommonJS wording too', async () => {
    const missing = Object.assign(new Error("Cannot find module 'openai'\nRequire stack: ..."), { code: 'MODULE_NOT_FOUND' });
    await expect(loadSdk(() => Promise.reject(missing), about)).rejects.toSatisfy(MissingSdkError.isInstance);
  });

  it('keeps other failures as they are: a broken dependency of the SDK is not a missing SDK', async () => {
    const inner = Object.assign(new Error("Cannot find module 'formdata-node'"), { code: 'MODULE_NOT_FOUND' });
    await expect(loadSdk(() => Promise.reject(inner), about)).rejects.toBe(inner);
    const crash = new TypeError('boom');
    await expect(loadSdk(() => Promise.reject(crash), about)).rejects.toBe(crash);
  });
});
