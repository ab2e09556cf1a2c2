import { createAnthropic } from '@ai-sdk/anthropic';
import { inspect } from 'node:util';
import { Agent, type AgentEvents, ReliabilityFailFastError, tool } from '@keel/core';
import { type ModelStreamPart, ProviderError } from '@keel/provider';
import { Type } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import { fromAISDK } from './from-ai-sdk';
import { anthropicError, anthropicMessage, anthropicText, anthropicTextEvents, anthropicToolUse, anthropicUsage } from './testing/anthropic-fixtures';
import { errorReply, jsonReply, sseReply, type WireReply, type WireServer, wireServersPerTest } from '@keel/wire-server';
import { dataEvents } from './testing/data-events';
import { asComplete } from '@keel/core/test';

/** Claude through `@ai-sdk/anthropic` (the real provider package) against a local Messages API server. */

const API_KEY = 'sk-ant-test-0123456789';
const MODEL = 'claude-sonnet-4-5';
const startServer = wireServersPerTest();

async function claude(options: { cache?: boolean }, ...replies: WireReply[]) {
  const wire = await startServer(...replies);
  const anthropic = createAnthropic({ baseURL: wire.url, apiKey: API_KEY });
  return { wire, provider: fromAISDK(anthropic(MODEL), { secrets: [API_KEY], ...options }) };
}

type Block = Record<string, unknown> & { cache_control?: unknown };
type Body = { system?: Block[]; messages: { role: string; content: Block[] }[]; tools?: Block[]; tool_choice?: unknown };
const bodyOf = (wire: WireServer, index: number) => wire.requests[index]?.body as Body;
const ephemeral = { type: 'ephemeral' };

const lookup = tool({ name: 'lookup_order', description: 'Look up an order', input: Type.Object({ orderId: Type.String({ pattern: '^A-\\d+$' }) }), execute: async () => '{"paid":50}' });
const Refund = Type.Object({ amount: Type.Number() });

describe('Claude via @ai-sdk/anthropic', () => {
  it('an agent with a tool, cache breakpoints on the system prompt, the last tool and the last kept message; cache reads and writes counted', async () => {
    const { wire, provider } = await claude(
      { cache: true },
      jsonReply(anthropicToolUse('lookup_order', { orderId: 'A-1' })),
      jsonReply(anthropicText('{"amount":50}', anthropicUsage(40, 8, 1800, 200))),
    );
    const result = asComplete(await Agent.create({ provider, model: MODEL }).system('You decide refunds.').tool(lookup).outputSchema(Refund).build().run('Refund order A-1?'));
    expect(result.value).toEqual({ amount: 50 });
    const second = bodyOf(wire, 1);
    expect(wire.requests[1]?.headers['x-api-key']).toBe(API_KEY);
    expect(second.system).toEqual([{ type: 'text', text: 'You decide refunds.', cache_control: ephemeral }]);
    expect(second.tools?.at(-1)?.cache_control).toEqual(ephemeral);
    expect(second.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'user']);
    expect(second.messages.at(-1)?.content.at(-1)).toMatchObject({ type: 'tool_result', tool_use_id: 'toolu_01', cache_control: ephemeral });
    expect(second.messages[0]?.content.at(-1)?.cache_control).toBeUndefined();
    expect(result.usage).toMatchObject({ inputTokens: 90, outputTokens: 18, cacheReadTokens: 1800, cacheWriteTokens: 200 });
  });

  it('retry feedback comes after the breakpoint: the rejected answer and the feedback are not cached', async () => {
    const { wire, provider } = await claude({ cache: true }, jsonReply(anthropicText('{"amount":"fifty"}')), jsonReply(anthropicText('{"amount":50}')));
    const result = asComplete(await Agent.create({ provider, model: MODEL }).outputSchema(Refund).build().run('Refund?'));
    expect(result.value).toEqual({ amount: 50 });
    const retry = bodyOf(wire, 1).messages;
    expect(retry.map((message) => message.role)).toEqual(['user', 'assistant', 'user']);
    expect(retry[0]?.content.at(-1)?.cache_control).toEqual(ephemeral);
    expect(retry[1]?.content.some((block) => block.cache_control !== undefined)).toBe(false);
    expect(retry[2]?.content.some((block) => block.cache_control !== undefined)).toBe(false);
  });

  it('no cache option, no breakpoints', async () => {
    const { wire, provider } = await claude({}, jsonReply(anthropicText('hi')));
    await Agent.create({ provider, model: MODEL }).system('Be brief.').build().run('hello');
    expect(JSON.stringify(wire.requests[0]?.body)).not.toContain('cache_control');
  });

  it('a tool-argument re-ask forces the tool (tool_choice type tool)', async () => {
    const { wire, provider } = await claude({}, jsonReply(anthropicToolUse('lookup_order', { orderId: '1182' })), jsonReply(anthropicToolUse('lookup_order', { orderId: 'A-1182' }, 'toolu_02')), jsonReply(anthropicText('{"amount":50}')));
    const result = asComplete(await Agent.create({ provider, model: MODEL }).tool(lookup).outputSchema(Refund).build().run('Refund order 1182?'));
    expect(result.value).toEqual({ amount: 50 });
    expect(bodyOf(wire, 1).tool_choice).toEqual({ type: 'tool', name: 'lookup_order' });
  });

  it('a 401 through an agent: the cause is the ProviderError, intact, reading as an authentication failure, with no key', async () => {
    const { wire, provider } = await claude({}, errorReply(401, anthropicError('authentication_error', `invalid x-api-key ${API_KEY}`), { 'x-echo-key': API_KEY }));
    const error = await Agent.create({ provider, model: MODEL }).build().run('hi').catch((thrown: unknown) => thrown);
    if (!(error instanceof ReliabilityFailFastError)) throw new Error(`expected a ReliabilityFailFastError, got ${String(error)}`);
    expect(error).toMatchObject({ kind: 'unhandled-failure', errorKind: 'auth', attempt: 1 });
    expect(error.attempts.map((attempt) => attempt.errorKind)).toEqual(['auth']);
    expect(wire.requests).toHaveLength(1);
    expect(error.cause).toBeInstanceOf(ProviderError);
    expect(ProviderError.isInstance(error.cause)).toBe(true);
    expect(error.cause).toMatchObject({ errorKind: 'auth', status: 401, retryable: false });
    expect(error.message).toMatch(/^[\w.-]+: authentication failed: the API key was rejected \(HTTP 401\)/);
    const printed = inspect(error, { depth: 10, showHidden: true });
    expect(printed).not.toContain(API_KEY);
    expect(printed).not.toMatch(/x-echo-key/i);
  });

  it('529 overloaded is retried by the gate with the server delay; a 401 is auth', async () => {
    const events: AgentEvents['reliability.retry'][] = [];
    const { wire, provider } = await claude({}, errorReply(529, anthropicError('overloaded_error', 'Overloaded'), { 'retry-after-ms': '15' }), jsonReply(anthropicText('ok')), errorReply(401, anthropicError('authentication_error', 'invalid x-api-key')));
    const result = await Agent.create({ provider, model: MODEL }).on('reliability.retry', (event) => void events.push(event)).build().run('hi');
    expect(result.text).toBe('ok');
    expect(result.attempts.map((attempt) => attempt.errorKind)).toEqual(['overloaded', 'ok']);
    expect(events.map((event) => event.delayMs)).toEqual([15]);
    const error = await provider.generate({ model: MODEL, messages: [{ role: 'user', content: 'hi' }] }, {}).catch((caught: unknown) => caught);
    expect(ProviderError.isInstance(error) && [error.errorKind, error.retryable]).toEqual(['auth', false]);
    expect(wire.requests).toHaveLength(3);
  });

  it('streams text; an overloaded error event mid-stream is a retried overloaded error', async () => {
    const { provider } = await claude({}, sseReply(dataEvents(anthropicTextEvents(['Hel', 'lo']))), sseReply(dataEvents([...anthropicTextEvents(['Hel']).slice(0, 3), anthropicError('overloaded_error', 'Overloaded')])));
    const parts: ModelStreamPart[] = [];
    for await (const part of provider.stream?.({ model: MODEL, messages: [{ role: 'user', content: 'hi' }] }, {}) ?? []) parts.push(part);
    expect(parts.filter((part) => part.type === 'text-delta').map((part) => part.text)).toEqual(['Hel', 'lo']);
    const finish = parts.at(-1);
    expect(finish?.type === 'finish' && finish.response).toMatchObject({ text: 'Hello', finishReason: 'stop', responseId: 'msg_01' });
    const failed = await (async () => {
      for await (const part of provider.stream?.({ model: MODEL, messages: [{ role: 'user', content: 'hi' }] }, {}) ?? []) void part;
    })().catch((caught: unknown) => caught);
    expect(ProviderError.isInstance(failed) && [failed.errorKind, failed.retryable]).toEqual(['overloaded', true]);
  });
});

describe('Claude via @ai-sdk/anthropic: a conversation that does not fit', () => {
  const request = { model: MODEL, messages: [{ role: 'user' as const, content: 'Summarise the attached logs.' }] };

  it('a 400 "prompt is too long" is context-overflow, not a plain bad request', async () => {
    const { wire, provider } = await claude({}, errorReply(400, anthropicError('invalid_request_error', 'prompt is too long: 208310 tokens > 200000 maximum')));
    const error = await provider.generate(request, {}).catch((caught: unknown) => caught);
    expect(ProviderError.isInstance(error) && [error.errorKind, error.retryable, error.status]).toEqual(['context-overflow', false, 400]);
    expect(wire.requests).toHaveLength(1);
  });

  it('a model stopped at its context window is context-overflow, never a cut answer', async () => {
    const { provider } = await claude({}, jsonReply(anthropicMessage([{ type: 'text', text: 'The logs show' }], { stopReason: 'model_context_window_exceeded' })));
    const error = await provider.generate(request, {}).catch((caught: unknown) => caught);
    expect(ProviderError.isInstance(error) && error.errorKind).toBe('context-overflow');
  });
});

describe('Claude via @ai-sdk/anthropic: images and files', () => {
  it('the provider package sends a base64 image and a PDF as Claude blocks, before the text', async () => {
    const { wire, provider } = await claude({}, jsonReply(anthropicText('It matches.')));
    await provider.generate({
      model: MODEL,
      messages: [{ role: 'user', content: 'Does it match?', attachments: [{ type: 'image', mediaType: 'image/png', data: 'iVBORw0KGgo=' }, { type: 'file', mediaType: 'application/pdf', data: 'JVBERi0xLjQK', filename: 'invoice.pdf' }] }],
    }, {});
    expect(bodyOf(wire, 0).messages[0]?.content).toMatchObject([
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } },
      { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: 'JVBERi0xLjQK' } },
      { type: 'text', text: 'Does it match?' },
    ]);
  });
});
