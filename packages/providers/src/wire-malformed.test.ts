import { Agent, ReliabilityFailFastError, tool } from '@keel/core';
import { transientRetryRule } from '@keel/reliability';
import { Type } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import { anthropic } from './anthropic/anthropic-provider';
import { openai } from './openai/openai-provider';
import { anthropicTextAnswer } from './testing/fixtures/anthropic-fixtures';
import { openAITextAnswer } from './testing/fixtures/openai-fixtures';
import { jsonReply, sseReply, type WireReply, wireServersPerTest } from '@keel/wire-server';

/** A body or stream chunk that breaks the vendor's format is a `bad-response`: retried, then a typed stop — never a TypeError. */

const startServer = wireServersPerTest();

const anthropicBodies: Record<string, unknown> = {
  'null content': { ...anthropicTextAnswer, content: null },
  'content as a string': { ...anthropicTextAnswer, content: 'hi' },
  'a text block without text': { ...anthropicTextAnswer, content: [{ type: 'text' }] },
  'a tool_use block without a name': { ...anthropicTextAnswer, content: [{ type: 'tool_use', id: 'x', input: {} }] },
};

const openAIBodies: Record<string, unknown> = {
  'choices as an object': { ...openAITextAnswer, choices: {} },
  'a choice without a message': { ...openAITextAnswer, choices: [{ index: 0, finish_reason: 'stop' }] },
  'content as a number': { ...openAITextAnswer, choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: 42 } }] },
};

type MakeProvider = (url: string) => Parameters<typeof Agent.create>[0]['provider'];

/** Runs (or streams) an agent against a server giving `reply` to each of three requests. */
async function runAgainst(make: MakeProvider, reply: WireReply, mode: 'run' | 'stream' = 'run') {
  const wire = await startServer(reply, reply, reply);
  const agent = Agent.create({ provider: make(wire.url), model: 'm' }).reliability({ postDecide: [transientRetryRule({ backoff: { baseMs: 0 } })] }).build();
  const error = await (mode === 'run' ? agent.run('hi') : agent.stream('hi').result).catch((thrown: unknown) => thrown);
  return { error, requests: wire.requests.length };
}

/** A streamed reply that breaks the format: `bad-response` after the two default retries. */
async function expectBadResponseAfterRetries(reply: WireReply, make: MakeProvider) {
  const { error, requests } = await runAgainst(make, reply, 'stream');
  expect(ReliabilityFailFastError.isInstance(error)).toBe(true);
  expect((error as ReliabilityFailFastError).errorKind).toBe('bad-response');
  expect(requests).toBe(3);
}

describe.each([
  ['Anthropic', anthropicBodies, (url: string) => anthropic({ baseURL: url, apiKey: 'test-key' })],
  ['OpenAI', openAIBodies, (url: string) => openai({ baseURL: url, apiKey: 'test-key' })],
] as const)('%s', (_vendor, bodies, make) => {
  it.each(Object.entries(bodies))('%s: bad-response after 2 retries', async (_name, body) => {
    const { error, requests } = await runAgainst(make, jsonReply(body));
    expect(ReliabilityFailFastError.isInstance(error)).toBe(true);
    expect((error as ReliabilityFailFastError).errorKind).toBe('bad-response');
    expect((error as Error).message).toContain('malformed');
    expect(requests).toBe(3);
  });
});

describe('OpenAI stream chunks that break the format', () => {
  const chunks: Record<string, unknown> = {
    'choices as a string': { id: 'c', choices: 'x' },
    'a null choice': { id: 'c', choices: [null] },
    'tool_calls as an object': { id: 'c', choices: [{ index: 0, delta: { tool_calls: {} }, finish_reason: null }] },
  };
  it.each(Object.entries(chunks))('%s: bad-response after 2 retries, never a TypeError', async (_name, chunk) => {
    await expectBadResponseAfterRetries(sseReply([{ data: chunk }, { data: '[DONE]' }]), (baseURL) => openai({ baseURL, apiKey: 'test-key' }));
  });
});

describe('Anthropic stream events that break the format', () => {
  const start = { event: 'message_start', data: { type: 'message_start', message: { id: 'msg_1', type: 'message', role: 'assistant', model: 'm', content: [], usage: { input_tokens: 1, output_tokens: 0 } } } };
  const events: Record<string, readonly { event: string; data: unknown }[]> = {
    'a message_start without a message': [{ event: 'message_start', data: { type: 'message_start', message: null } }],
    'a block start without a block': [start, { event: 'content_block_start', data: { type: 'content_block_start', index: 0, content_block: null } }],
    'a text block without text': [start, { event: 'content_block_start', data: { type: 'content_block_start', index: 0, content_block: { type: 'text' } } }],
    'a delta that is null': [
      start,
      { event: 'content_block_start', data: { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } } },
      { event: 'content_block_delta', data: { type: 'content_block_delta', index: 0, delta: null } },
    ],
    'a text delta that is a number': [
      start,
      { event: 'content_block_start', data: { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } } },
      { event: 'content_block_delta', data: { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 42 } } },
    ],
  };
  it.each(Object.entries(events))('%s: bad-response after 2 retries, never a TypeError', async (_name, stream) => {
    await expectBadResponseAfterRetries(sseReply(stream), (baseURL) => anthropic({ baseURL, apiKey: 'test-key' }));
  });
});

describe('OpenAI tool calls with missing or unusual arguments', () => {
  it('a call without arguments is {} and an already-parsed object is taken as it is: the tools run', async () => {
    const call = (id: string, fn: Record<string, unknown>) => ({ id, type: 'function', function: { name: 'echo', ...fn } });
    const toolTurn = {
      ...openAITextAnswer,
      choices: [{ index: 0, finish_reason: 'tool_calls', message: { role: 'assistant', content: null, tool_calls: [call('a', {}), call('b', { arguments: { n: 1 } })] } }],
    };
    const wire = await startServer(jsonReply(toolTurn), jsonReply(openAITextAnswer));
    const echo = tool({ name: 'echo', description: 'echo', input: Type.Object({ n: Type.Optional(Type.Number()) }), execute: (input) => input });
    const result = await Agent.create({ provider: openai({ baseURL: wire.url, apiKey: 'test-key' }), model: 'm' }).tool(echo).build().run('hi');
    expect(result.toolCalls.map((record) => [record.arguments, record.isError])).toEqual([
      [{}, false],
      [{ n: 1 }, false],
    ]);
  });
});
