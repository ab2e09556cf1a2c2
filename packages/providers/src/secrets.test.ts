import { inspect } from 'node:util';
import { Agent, type AgentEvents, InMemoryStore, ReliabilityFailFastError, tool } from '@keel/core';
import { Type } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import { anthropic } from './anthropic/anthropic-provider';
import { ProviderError } from '@keel/provider';
import { openai } from './openai/openai-provider';
import { anthropicErrorBody, anthropicTextAnswer, anthropicToolUse } from './testing/fixtures/anthropic-fixtures';
import { openAIMultiToolCall, openAITextAnswer } from './testing/fixtures/openai-fixtures';
import { errorReply, jsonReply, wireServersPerTest } from '@keel/wire-server';

/** Secrets never leave: a server that echoes the API key back, through the real SDKs and the agent. */

const KEY = 'sk-test-4f9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c';
const startServer = wireServersPerTest();

async function echoingServer(status: number) {
  const body = anthropicErrorBody('authentication_error', `invalid x-api-key: ${KEY} (key ${KEY})`);
  const wire = await startServer(
    errorReply(status, body, { 'request-id': 'req_0123456789', 'x-echo-key': KEY, 'set-cookie': `session=${KEY}` }),
    errorReply(status, body, { 'request-id': 'req_0123456789', 'x-echo-key': KEY }),
    errorReply(status, body, { 'request-id': 'req_0123456789', 'x-echo-key': KEY }),
  );
  return wire;
}

function recordAll(builder: ReturnType<typeof Agent.create>) {
  const seen: unknown[] = [];
  const names: (keyof AgentEvents)[] = ['model.error', 'model.request', 'model.response', 'reliability.fail-fast', 'reliability.retry', 'run.end'];
  let next = builder;
  for (const name of names) next = next.on(name, (payload) => void seen.push(payload));
  return { builder: next, seen };
}

const providers = {
  anthropic: (url: string) => anthropic({ baseURL: url, apiKey: KEY }),
  openai: (url: string) => openai({ baseURL: url, apiKey: KEY }),
};

describe.each(Object.entries(providers))('%s: the API key never leaves', (_name, make) => {
  it('a direct call: the error and its cause are redacted, at inspect depth 10, with no headers', async () => {
    const wire = await echoingServer(401);
    const provider = make(wire.url);
    const error = await provider.generate({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }, {}).catch((thrown: unknown) => thrown);
    expect(ProviderError.isInstance(error)).toBe(true);
    const printed = inspect(error, { depth: 10, showHidden: true });
    expect(printed).not.toContain(KEY);
    expect(printed).toContain('[redacted]');
    expect(printed).not.toMatch(/x-echo-key|set-cookie|content-type/i);
    const providerError = error as ProviderError;
    expect(providerError.errorKind).toBe('auth');
    expect(providerError.cause).toMatchObject({ status: 401, requestId: 'req_0123456789' });
    expect(Object.keys(providerError.cause ?? {}).sort()).toEqual(['message', 'name', 'requestId', 'status']);
  });

  it('through an agent: fail-fast message, cause, attempts and every event are redacted', async () => {
    const wire = await echoingServer(500);
    const { builder, seen } = recordAll(Agent.create({ provider: make(wire.url), model: 'm' }));
    const error = await builder.build().run('hi').catch((thrown: unknown) => thrown);
    expect(ReliabilityFailFastError.isInstance(error)).toBe(true);
    expect(wire.requests).toHaveLength(3);
    expect(inspect(error, { depth: 10, showHidden: true })).not.toContain(KEY);
    expect(JSON.stringify((error as ReliabilityFailFastError).attempts)).not.toContain(KEY);
    expect(seen.length).toBeGreaterThan(5);
    expect(inspect(seen, { depth: 10 })).not.toContain(KEY);
    expect(inspect(seen, { depth: 10 })).toContain('[redacted]');
  });
});

describe.each(Object.entries(providers))('%s: a 401 through an agent is what happened', (name, make) => {
  it('is caught with instanceof ProviderError on the cause, reads as an authentication failure, and keeps no key', async () => {
    const wire = await echoingServer(401);
    const error = await Agent.create({ provider: make(wire.url), model: 'm' }).build().run('hi').catch((thrown: unknown) => thrown);
    // The gate's story: the stop, its kind and every attempt.
    if (!(error instanceof ReliabilityFailFastError)) throw new Error(`expected a ReliabilityFailFastError, got ${String(error)}`);
    expect(error).toMatchObject({ kind: 'unhandled-failure', errorKind: 'auth', attempt: 1 });
    expect(error.attempts.map((attempt) => attempt.errorKind)).toEqual(['auth']);
    expect(wire.requests).toHaveLength(1);
    // The provider's own error, intact.
    expect(error.cause).toBeInstanceOf(ProviderError);
    expect(ProviderError.isInstance(error.cause)).toBe(true);
    const cause = error.cause as ProviderError;
    expect(cause).toMatchObject({ errorKind: 'auth', status: 401, provider: name, retryable: false });
    expect(error.message).toMatch(/^(Anthropic|OpenAI): authentication failed: the API key was rejected \(HTTP 401\)/);
    expect(error.message).toContain('the reliability gate stopped on attempt 1: no rule retries a failure of kind auth');
    const printed = inspect(error, { depth: 10, showHidden: true });
    expect(printed).not.toContain(KEY);
    expect(printed).not.toMatch(/x-echo-key|set-cookie/i);
  });
});

describe.each([
  ['anthropic', providers.anthropic, anthropicToolUse, anthropicTextAnswer],
  ['openai', providers.openai, openAIMultiToolCall, openAITextAnswer],
] as const)('%s: a tool error quoting the API key', (_name, make, toolTurn, finalTurn) => {
  it('reaches the model, the result, memory and events redacted', async () => {
    const wire = await startServer(jsonReply(toolTurn), jsonReply(finalTurn));
    const leaky = tool({
      name: 'get_weather',
      description: 'weather',
      input: Type.Object({ city: Type.String() }, { additionalProperties: true }),
      execute: () => {
        throw new Error(`upstream refused key ${KEY}`);
      },
    });
    const memory = new InMemoryStore();
    const { builder, seen } = recordAll(Agent.create({ provider: make(wire.url), model: 'm' }));
    const result = await builder.tool(leaky).memory(memory).on('tool.end', (payload) => void seen.push(payload)).build().run('hi');
    expect(result.toolCalls[0]).toMatchObject({ isError: true, errorCode: 'tool-error' });
    expect(result.toolCalls[0]?.output).toContain('[redacted]');
    expect(inspect(result, { depth: 10 })).not.toContain(KEY);
    expect(JSON.stringify(wire.requests[1]?.body)).not.toContain(KEY);
    expect(JSON.stringify(await memory.load('default'))).not.toContain(KEY);
    expect(inspect(seen, { depth: 10 })).not.toContain(KEY);
  });
});

describe('ProviderError keeps a reduced cause', () => {
  it('keeps name, message, status and request id of any cause, never the object', () => {
    const headers = new Headers({ 'request-id': 'req_1', authorization: `Bearer ${KEY}` });
    const cause = Object.assign(new Error(`bad key ${KEY}`), { status: 401, headers, request: { body: KEY } });
    const error = new ProviderError({ message: `failed: ${KEY}`, errorKind: 'auth', provider: 'p', cause, secrets: [KEY] });
    expect(error.message).toBe('failed: [redacted]');
    expect(error.cause).toEqual({ name: 'Error', message: 'bad key [redacted]', status: 401, requestId: 'req_1' });
    expect(inspect(error, { depth: 10, showHidden: true })).not.toContain(KEY);
  });

  it('survives a hostile cause', () => {
    const trap = () => { throw new Error('trap'); };
    const proxy = new Proxy({}, { get: trap, getPrototypeOf: trap, has: trap });
    const error = new ProviderError({ message: 'x', errorKind: 'unknown', provider: 'p', cause: proxy });
    expect(error.cause).toEqual({ name: 'Error', message: '[unprintable value]' });
    expect(new ProviderError({ message: 'x', errorKind: 'unknown', provider: 'p', cause: Symbol('s') }).cause).toEqual({ name: 'Error', message: 'Symbol(s)' });
  });
});
