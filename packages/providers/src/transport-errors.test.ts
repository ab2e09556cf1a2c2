import Anthropic from '@anthropic-ai/sdk';
import { type ModelProviderV1, type ModelRequest, ProviderError } from '@keel/provider';
import { errorReply, hangReply, resetReply, respondReply, type SseEvent, sseReply, wireServerPerTest } from '@keel/wire-server';
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { anthropic } from './anthropic/anthropic-provider';
import { openai } from './openai/openai-provider';
import { collectStreamFailure } from './testing/collect-stream';
import { anthropicErrorBody, anthropicTextStreamHead } from './testing/fixtures/anthropic-fixtures';
import { openAIErrorBody, openAITextStreamHead } from './testing/fixtures/openai-fixtures';
import { assertValidAnthropicRequest } from './testing/validate-anthropic-request';
import { assertValidOpenAIRequest } from './testing/validate-openai-request';

/** What differs per adapter in how a call fails: the same failures must read the same on both. */
interface Adapter {
  readonly model: string;
  readonly make: (url: string, options?: { apiKey?: string; timeout?: number }) => ModelProviderV1;
  /** A prebuilt SDK client configured to retry five times. */
  readonly retryingClient: (url: string) => ModelProviderV1;
  readonly errorBody: (type: string, message: string) => unknown;
  readonly streamHead: readonly SseEvent[];
  readonly assertValid: (body: unknown) => void;
  /** The environment variables the SDK reads a key from. */
  readonly keyVariables: readonly string[];
  /** The vendor's refusal of a request that does not fit the model's context window (HTTP 400). */
  readonly overflowBody: unknown;
}

const adapters: Record<string, Adapter> = {
  anthropic: {
    model: 'claude-sonnet-4-6',
    make: (url, options = {}) => anthropic({ baseURL: url, apiKey: 'test-key', ...options }),
    retryingClient: (url) => anthropic({ client: new Anthropic({ baseURL: url, apiKey: 'test-key', maxRetries: 5 }) }),
    errorBody: anthropicErrorBody,
    streamHead: anthropicTextStreamHead,
    assertValid: assertValidAnthropicRequest,
    keyVariables: ['ANTHROPIC_API_KEY', 'ANTHROPIC_AUTH_TOKEN'],
    overflowBody: anthropicErrorBody('invalid_request_error', 'prompt is too long: 208310 tokens > 200000 maximum'),
  },
  openai: {
    model: 'gpt-4o-mini',
    make: (url, options = {}) => openai({ baseURL: `${url}/v1`, apiKey: 'test-key', ...options }),
    retryingClient: (url) => openai({ client: new OpenAI({ baseURL: `${url}/v1`, apiKey: 'test-key', maxRetries: 5 }) }),
    errorBody: openAIErrorBody,
    streamHead: openAITextStreamHead,
    assertValid: assertValidOpenAIRequest,
    keyVariables: ['OPENAI_API_KEY', 'OPENAI_ADMIN_KEY', 'OPENAI_BASE_URL'],
    overflowBody: openAIErrorBody('invalid_request_error', "This model's maximum context length is 128000 tokens. However, your messages resulted in 130512 tokens. Please reduce the length of the messages.", 'context_length_exceeded'),
  },
};

async function failure(promise: Promise<unknown>): Promise<ProviderError> {
  const error: unknown = await promise.then(() => undefined, (thrown: unknown) => thrown);
  if (!ProviderError.isInstance(error)) throw new Error(`expected a ProviderError, got ${String(error)}`);
  return error;
}

/** Runs `body` with the SDK's key variables unset, restoring them after. */
async function withoutKeys<T>(names: readonly string[], body: () => Promise<T>): Promise<T> {
  const saved = names.map((name) => [name, process.env[name]] as const);
  for (const name of names) delete process.env[name];
  try {
    return await body();
  } finally {
    for (const [name, value] of saved) if (value !== undefined) process.env[name] = value;
  }
}

/**
 * A wire server for each test of the calling suite (every request it gets must be valid for the
 * adapter), the question asked, and the adapter's provider pointed at that server.
 */
function onWire(adapter: Adapter) {
  const server = wireServerPerTest((sent) => {
    for (const request of sent.requests) adapter.assertValid(request.body);
  });
  const question: ModelRequest = { model: adapter.model, messages: [{ role: 'user', content: 'What is the capital of France?' }] };
  const provider = (options?: { apiKey?: string; timeout?: number }) => adapter.make(server().url, options);
  return { server, question, provider };
}

describe.each(Object.entries(adapters))('%s: how a call fails', (name, adapter) => {
  const { server, question, provider } = onWire(adapter);

  it('maps 429 with retry-after to rate-limit with retryAfterMs, without retrying', async () => {
    server().enqueue(errorReply(429, adapter.errorBody('rate_limit_error', 'Rate limit reached'), { 'retry-after': '7' }));
    expect(await failure(provider().generate(question, {}))).toMatchObject({ errorKind: 'rate-limit', status: 429, retryAfterMs: 7000, retryable: true, provider: name });
    expect(server().requests).toHaveLength(1);
  });

  it.each([
    [529, 'overloaded', true],
    [500, 'server-error', true],
    [503, 'server-error', true],
    [401, 'auth', false],
    [403, 'auth', false],
    [400, 'bad-request', false],
    [404, 'bad-request', false],
  ] as const)('maps HTTP %i to %s, without retrying', async (status, errorKind, retryable) => {
    server().enqueue(errorReply(status, adapter.errorBody('invalid_request_error', 'failed')));
    expect(await failure(provider().generate(question, {}))).toMatchObject({ errorKind, status, retryable });
    expect(server().requests).toHaveLength(1);
  });

  it('a rejected key (401) is caught with instanceof ProviderError and reads as an authentication failure', async () => {
    server().enqueue(errorReply(401, adapter.errorBody('authentication_error', 'invalid x-api-key')));
    const error = await provider({ apiKey: 'wrong-key-0123456789' }).generate(question, {}).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ errorKind: 'auth', status: 401, retryable: false });
    expect((error as Error).message).toMatch(/authentication failed: the API key was rejected \(HTTP 401\)/);
  });

  it('no key at all is auth, not unknown, and nothing is sent', async () => {
    const keyless = () => (name === 'openai' ? openai({}) : anthropic({ baseURL: server().url }));
    const error = await withoutKeys(adapter.keyVariables, () => keyless().generate(question, {}).catch((thrown: unknown) => thrown));
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ errorKind: 'auth', retryable: false });
    expect((error as Error).message).toMatch(/authentication failed: no API key is set/);
    expect(server().requests).toHaveLength(0);
  });

  it('a request that does not fit the context window is context-overflow, not a plain bad request, and not retried', async () => {
    server().enqueue(errorReply(400, adapter.overflowBody), errorReply(400, adapter.overflowBody));
    const error = await failure(provider().generate(question, {}));
    expect(error).toMatchObject({ errorKind: 'context-overflow', status: 400, retryable: false });
    expect(error.message).toMatch(/does not fit the model's context window/);
    expect(error.schemaRejected).toBeUndefined();
    const { error: streamed } = await collectStreamFailure(provider().stream!(question, {}));
    expect(streamed).toMatchObject({ errorKind: 'context-overflow' });
    expect(server().requests).toHaveLength(2);
  });

  it('never retries, even with a prebuilt client configured to', async () => {
    server().enqueue(errorReply(500, adapter.errorBody('api_error', 'The server had an error'), { 'retry-after': '0' }));
    expect((await failure(adapter.retryingClient(server().url).generate(question, {}))).errorKind).toBe('server-error');
    expect(server().requests).toHaveLength(1);
  });
});

describe.each(Object.entries(adapters))('%s: how a call fails', (_name, adapter) => {
  const { server, question, provider } = onWire(adapter);

  it('maps a connection reset to network, without retrying', async () => {
    server().enqueue(resetReply());
    expect(await failure(provider().generate(question, {}))).toMatchObject({ errorKind: 'network', retryable: true });
    expect(server().requests).toHaveLength(1);
  });

  it('maps a hanging server past the client timeout to timeout, without retrying', async () => {
    server().enqueue(hangReply());
    expect(await failure(provider({ timeout: 100 }).generate(question, {}))).toMatchObject({ errorKind: 'timeout', retryable: true });
    // On a loaded machine the timeout can fire before the request arrives: at most one was sent.
    expect(server().requests.length).toBeLessThanOrEqual(1);
  });

  it('rejects with aborted when the signal aborts during the request', async () => {
    const controller = new AbortController();
    // The server aborts the call once the request has arrived, then never answers.
    server().enqueue(respondReply(() => (controller.abort(), hangReply())));
    expect(await failure(provider().generate(question, { signal: controller.signal }))).toMatchObject({ errorKind: 'aborted', retryable: false });
    expect(server().requests).toHaveLength(1);
  });

  it('rejects an already aborted signal without sending anything', async () => {
    expect((await failure(provider().generate(question, { signal: AbortSignal.abort() }))).errorKind).toBe('aborted');
    expect(server().requests).toHaveLength(0);
  });

  it.each(['destroy', 'end'] as const)('throws network when the stream drops mid-way (%s), never ends silently', async (ending) => {
    server().enqueue(sseReply(adapter.streamHead, { ending }));
    const { parts, error } = await collectStreamFailure(provider().stream!(question, {}));
    expect(parts.map((part) => part.type)).toEqual(['text-delta', 'text-delta']);
    expect(ProviderError.isInstance(error) && error.errorKind).toBe('network');
    expect(server().requests).toHaveLength(1);
  });

  it('maps an HTTP error before the stream starts', async () => {
    server().enqueue(errorReply(429, adapter.errorBody('rate_limit_error', 'slow down'), { 'retry-after-ms': '1500' }));
    const { error } = await collectStreamFailure(provider().stream!(question, {}));
    expect(error).toMatchObject({ errorKind: 'rate-limit', retryAfterMs: 1500 });
    expect(server().requests).toHaveLength(1);
  });

  it('throws aborted (not a silent end) when the signal aborts mid-stream', async () => {
    server().enqueue(sseReply(adapter.streamHead, { ending: 'hang' }));
    const controller = new AbortController();
    const parts: string[] = [];
    const consume = async () => {
      for await (const part of provider().stream!(question, { signal: controller.signal })) {
        parts.push(part.type);
        if (parts.length === 2) controller.abort();
      }
    };
    expect(await failure(consume())).toMatchObject({ errorKind: 'aborted' });
    expect(parts).toEqual(['text-delta', 'text-delta']);
  });
});
