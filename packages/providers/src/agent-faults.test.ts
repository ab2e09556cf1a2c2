// The SDKs load on a provider's first use; loading them here keeps that out of the timed tests.
import '@anthropic-ai/sdk';
import 'openai';
import { Agent, AbortedError, type AgentEvents, ReliabilityFailFastError } from '@keel/core';
import { failoverRule } from '@keel/reliability';
import { Type } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import { anthropic } from './anthropic/anthropic-provider';
import { openai } from './openai/openai-provider';
import { anthropicErrorBody, anthropicTextAnswer, anthropicTextStream, anthropicTextStreamHead } from './testing/fixtures/anthropic-fixtures';
import { openAITextAnswer } from './testing/fixtures/openai-fixtures';
import { anthropicRequestIssues as validateAnthropicRequest } from './testing/validate-anthropic-request';
import { errorReply, hangReply, jsonReply, resetReply, sseReply, type WireServer, wireServersPerTest } from '@keel/wire-server';
import { asComplete } from '@keel/core/test';

/**
 * Faults end to end: the real SDKs against a local wire server, through the agent and its
 * reliability gate. Each test checks the attempts, the events and the usage.
 */

const server = wireServersPerTest();

type Recorded = { name: keyof AgentEvents; payload: Record<string, unknown> };

function agentOn(wire: WireServer, options: { timeout?: number; maxRetryAfterMs?: number } = {}) {
  const events: Recorded[] = [];
  const provider = anthropic({ baseURL: wire.url, apiKey: 'test-key', ...(options.timeout ? { timeout: options.timeout } : {}) });
  let builder = Agent.create({ provider, model: 'claude-sonnet-4-6', ...(options.maxRetryAfterMs ? { maxRetryAfterMs: options.maxRetryAfterMs } : {}) });
  for (const name of ['model.error', 'reliability.retry', 'reliability.recovered', 'run.end'] as const) {
    builder = builder.on(name, (payload) => void events.push({ name, payload: payload as unknown as Record<string, unknown> }));
  }
  return { builder, events };
}

const retryDelays = (events: readonly Recorded[]) => events.filter((event) => event.name === 'reliability.retry').map((event) => event.payload.delayMs);
const errorKinds = (events: readonly Recorded[]) => events.filter((event) => event.name === 'model.error').map((event) => event.payload.errorKind);

describe('provider faults through the gate', () => {
  it('429 with Retry-After: waits as told (capped) and succeeds on the second attempt', async () => {
    const wire = await server(errorReply(429, anthropicErrorBody('rate_limit_error', 'Rate limited'), { 'retry-after-ms': '25' }), jsonReply(anthropicTextAnswer));
    const { builder, events } = agentOn(wire);
    const result = await builder.build().run('Capital of France?');
    expect(result.text).toBe('The capital of France is Paris.');
    expect(wire.requests).toHaveLength(2);
    expect(result.attempts.map((attempt) => attempt.errorKind)).toEqual(['rate-limit', 'ok']);
    expect(retryDelays(events)).toEqual([25]);
    expect(result.usage.modelCalls).toBe(2);
    expect(result.usage).toMatchObject({ inputTokens: 21, outputTokens: 10, cacheReadTokens: 1800 });
    for (const request of wire.requests) expect(validateAnthropicRequest(request.body)).toEqual([]);
  });

  it('a Retry-After beyond the cap is capped', async () => {
    const wire = await server(errorReply(429, anthropicErrorBody('rate_limit_error', 'Rate limited'), { 'retry-after': '3600' }), jsonReply(anthropicTextAnswer));
    const { builder, events } = agentOn(wire, { maxRetryAfterMs: 30 });
    await builder.build().run('Capital of France?');
    expect(retryDelays(events)).toEqual([30]);
  });

  it('529 twice then success: three attempts, two retries, the usage of the answer', async () => {
    const overloaded = () => errorReply(529, anthropicErrorBody('overloaded_error', 'Overloaded'), { 'retry-after-ms': '5' });
    const wire = await server(overloaded(), overloaded(), jsonReply(anthropicTextAnswer));
    const { builder, events } = agentOn(wire);
    const result = await builder.build().run('Capital of France?');
    expect(wire.requests).toHaveLength(3);
    expect(errorKinds(events)).toEqual(['overloaded', 'overloaded']);
    expect(result.attempts.map((attempt) => attempt.errorKind)).toEqual(['overloaded', 'overloaded', 'ok']);
    expect(events.find((event) => event.name === 'reliability.recovered')?.payload).toMatchObject({ attempt: 3, priorFailures: 2, via: 'retry' });
    const end = events.find((event) => event.name === 'run.end')?.payload;
    expect(end).toMatchObject({ status: 'complete', modelCalls: 3, inputTokens: 21, outputTokens: 10 });
  });

  it('500 then the fallback provider: the second provider answers with its own model', async () => {
    const primary = await server(errorReply(500, anthropicErrorBody('api_error', 'Internal server error')));
    const secondary = await server(jsonReply(openAITextAnswer));
    const result = await Agent.create({
      provider: anthropic({ baseURL: primary.url, apiKey: 'test-key' }),
      model: 'claude-sonnet-4-6',
      failover: [{ provider: openai({ baseURL: secondary.url, apiKey: 'test-key' }), model: 'gpt-4o-mini' }],
    })
      .reliability({ postDecide: [failoverRule()] })
      .build()
      .run('Capital of France?');
    expect(result.text).toBe('The capital of France is Paris.');
    expect(primary.requests).toHaveLength(1);
    expect(secondary.requests).toHaveLength(1);
    expect(secondary.requests[0]?.body).toMatchObject({ model: 'gpt-4o-mini' });
    expect(result.attempts.map((attempt) => [attempt.providerIndex, attempt.errorKind])).toEqual([
      [0, 'server-error'],
      [1, 'ok'],
    ]);
  });

  it('a connection reset is a network error, retried', async () => {
    const wire = await server(resetReply(), jsonReply(anthropicTextAnswer));
    const { builder, events } = agentOn(wire);
    const result = await builder.build().run('Capital of France?');
    expect(errorKinds(events)).toEqual(['network']);
    expect(result.attempts.map((attempt) => attempt.errorKind)).toEqual(['network', 'ok']);
    expect(wire.requests).toHaveLength(2);
  });

  it('a stream dropped mid-way before any text was shown (buffered output) is retried; the answer is whole', async () => {
    const jsonStream = (ending: 'complete' | 'destroy') => {
      const head = [
        { event: 'message_start', data: { type: 'message_start', message: { ...anthropicTextAnswer, content: [], stop_reason: null, usage: { input_tokens: 30, output_tokens: 1 } } } },
        { event: 'content_block_start', data: { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } } },
        { event: 'content_block_delta', data: { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: '{"city": "Pa' } } },
      ];
      const tail = [
        { event: 'content_block_delta', data: { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'ris"}' } } },
        { event: 'content_block_stop', data: { type: 'content_block_stop', index: 0 } },
        { event: 'message_delta', data: { type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 9 } } },
        { event: 'message_stop', data: { type: 'message_stop' } },
      ];
      return sseReply(ending === 'destroy' ? head : [...head, ...tail], { ending });
    };
    const wire = await server(jsonStream('destroy'), jsonStream('complete'));
    const { builder, events } = agentOn(wire);
    const stream = builder.outputSchema(Type.Object({ city: Type.String() })).build().stream('Which city?');
    const texts: string[] = [];
    for await (const part of stream) if (part.type === 'text-delta') texts.push(part.text);
    expect(errorKinds(events)).toEqual(['network']);
    expect(wire.requests).toHaveLength(2);
    expect(texts.join('')).toBe('{"city": "Paris"}');
    expect(asComplete(await stream.result).value).toEqual({ city: 'Paris' });
  });
});

describe('provider faults through the gate', () => {
  it('a stream dropped after text was shown is reported, never silently retried', async () => {
    const wire = await server(sseReply(anthropicTextStreamHead, { ending: 'destroy' }), sseReply(anthropicTextStream));
    const { builder, events } = agentOn(wire);
    const stream = builder.build().stream('Say hello');
    const texts: string[] = [];
    const error = await (async () => {
      for await (const part of stream) if (part.type === 'text-delta') texts.push(part.text);
    })().catch((caught: unknown) => caught);
    expect(ReliabilityFailFastError.isInstance(error) && error.message).toContain('not retried');
    expect(texts.join('')).toBe('Hello, world');
    expect(wire.requests).toHaveLength(1);
    expect(events.find((event) => event.name === 'run.end')?.payload).toMatchObject({ status: 'failed', modelCalls: 1 });
  });

  it('a hanging server times out, is retried, and the run succeeds', async () => {
    const wire = await server(hangReply(), jsonReply(anthropicTextAnswer));
    const { builder, events } = agentOn(wire, { timeout: 500 });
    const result = await builder.build().run('Capital of France?');
    expect(errorKinds(events)).toEqual(['timeout']);
    expect(result.attempts.map((attempt) => attempt.errorKind)).toEqual(['timeout', 'ok']);
  });

  it('abort during a request rejects promptly with AbortedError and no retry', async () => {
    const wire = await server(hangReply());
    const { builder, events } = agentOn(wire);
    const controller = new AbortController();
    // Aborted once the request is on the wire (a fixed delay could fire before it got there on a busy machine).
    const watch = setInterval(() => {
      if (wire.requests.length === 0) return;
      clearInterval(watch);
      controller.abort();
    }, 5);
    const started = performance.now();
    await expect(builder.build().run('Capital of France?', { signal: controller.signal })).rejects.toSatisfy(AbortedError.isInstance);
    expect(performance.now() - started).toBeLessThan(2000);
    expect(wire.requests).toHaveLength(1);
    expect(events.find((event) => event.name === 'run.end')?.payload).toMatchObject({ status: 'aborted', modelCalls: 1 });
  });

  it('abort during a backoff wait rejects promptly and makes no further request', async () => {
    const wire = await server(errorReply(429, anthropicErrorBody('rate_limit_error', 'Rate limited'), { 'retry-after': '20' }), jsonReply(anthropicTextAnswer));
    const { builder, events } = agentOn(wire);
    const controller = new AbortController();
    const agent = builder.on('reliability.retry', () => void setTimeout(() => controller.abort(), 20)).build();
    const started = performance.now();
    await expect(agent.run('Capital of France?', { signal: controller.signal })).rejects.toSatisfy(AbortedError.isInstance);
    expect(performance.now() - started).toBeLessThan(2000);
    expect(retryDelays(events)).toEqual([20_000]);
    expect(wire.requests).toHaveLength(1);
  });

  it('auth errors are never retried', async () => {
    const wire = await server(errorReply(401, anthropicErrorBody('authentication_error', 'invalid x-api-key')));
    const { builder } = agentOn(wire);
    const error = await builder.build().run('hi').catch((caught: unknown) => caught);
    expect(ReliabilityFailFastError.isInstance(error) && error.errorKind).toBe('auth');
    expect(wire.requests).toHaveLength(1);
  });

  it('a forced tool choice reaches the wire on a tool-argument re-ask', async () => {
    const toolUse = (input: unknown) => ({
      ...anthropicTextAnswer,
      content: [{ type: 'tool_use', id: 'toolu_01', name: 'add', input }],
      stop_reason: 'tool_use',
    });
    const wire = await server(jsonReply(toolUse({ a: 1, b: 'two' })), jsonReply(toolUse({ a: 1, b: 2 })), jsonReply(anthropicTextAnswer));
    const { builder } = agentOn(wire);
    const { tool } = await import('@keel/core');
    const add = tool({ name: 'add', description: 'Adds', input: Type.Object({ a: Type.Number(), b: Type.Number() }), execute: ({ a, b }) => a + b });
    const result = await builder.tool(add).build().run('1 + 2?');
    expect(result.toolCalls.map((call) => call.arguments)).toEqual([{ a: 1, b: 2 }]);
    const reask = wire.requests[1]?.body as { tool_choice: unknown; messages: { role: string }[] };
    expect(reask.tool_choice).toEqual({ type: 'tool', name: 'add' });
    for (const request of wire.requests) expect(validateAnthropicRequest(request.body)).toEqual([]);
  });
});
