import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ModelProvider, ModelRequest } from '@keel/core';

/** A cassette file's path in a new temporary folder (nothing there yet). */
export const newCassettePath = (): string => join(mkdtempSync(join(tmpdir(), 'keel-cassette-')), 'calls.json');

/** A request asking `content`, with a system prompt, and `extra` fields. */
export const ask = (content: string, extra: Partial<ModelRequest> = {}): ModelRequest => ({ model: 'claude-sonnet-4-6', system: 'Answer briefly.', messages: [{ role: 'user', content }], ...extra });

/** A provider that must not be called: replay never reaches the network. */
export const offline: ModelProvider = {
  specificationVersion: 'v1',
  name: 'scripted',
  generate: () => Promise.reject(new Error('the provider was called during replay')),
  async *stream() {
    yield* [];
    throw new Error('the provider was called during replay');
  },
};
