// The SDK loads on a provider's first use; loading it here keeps that out of the run.
import '@anthropic-ai/sdk';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, type ModelProvider, type ModelRequest, ReliabilityFailFastError, type RunResult, tool } from '@keel/core';
import { AGENT_EVENT_NAMES } from '@keel/core/internal';
import { asComplete } from '@keel/core/test';
import { anthropic } from '@keel/providers/anthropic';
import { Type } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
// The providers' local Messages API server and simulated Claude model, shared with their own tests.
import { anthropicModel } from '../../../providers/src/testing/anthropic-model';
import { errorReply, wireServersPerTest } from '@keel/wire-server';
import { cassette } from './cassette';

const startServer = wireServersPerTest();

const API_KEY = 'sk-ant-api03-WireTestKey0000000000000000';
const Line = Type.Object({ sku: Type.String({ pattern: '^[A-Z]{3}-\\d+$' }), quantity: Type.Integer({ minimum: 1, maximum: 10 }) });
const lookup = tool({
  name: 'lookup',
  description: 'Find the SKU of a product.',
  input: Type.Object({ product: Type.String({ minLength: 1 }) }),
  execute: ({ product }) => (product === 'widget' ? 'ABC-12' : 'unknown'),
});

/** A provider that keeps every request it passes on. */
function spy(provider: ModelProvider): ModelProvider & { readonly requests: ModelRequest[] } {
  const requests: ModelRequest[] = [];
  return {
    ...provider,
    requests,
    generate: (request, options) => (requests.push(structuredClone(request)), provider.generate(request, options)),
    ...(provider.stream ? { stream: (request: ModelRequest, options: Parameters<NonNullable<ModelProvider['stream']>>[1]) => (requests.push(structuredClone(request)), (provider.stream as NonNullable<ModelProvider['stream']>)(request, options)) } : {}),
  };
}

/** Timing fields zeroed: all that may differ between two runs that made the same calls. */
const TIMING = new Set(['timestamp', 'latencyMs', 'durationMs', 'elapsedMs', 'startedAt']);
function untimed(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(untimed);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, TIMING.has(key) ? 0 : untimed(item)]));
}

interface Recorded {
  readonly requests: ModelRequest[];
  readonly events: unknown[];
  readonly result: RunResult<unknown>;
}

async function runOnce(provider: ModelProvider, streaming: boolean, prompt = 'Two widgets, please.'): Promise<Recorded> {
  const watched = spy(provider);
  const agent = Agent.create({ provider: watched, model: 'claude-sonnet-4-6' }).tool(lookup).outputSchema(Line).build();
  const events: unknown[] = [];
  for (const name of AGENT_EVENT_NAMES) agent.on(name, (payload) => void events.push({ name, ...payload }));
  const options = { runId: 'run-cassette-1' };
  const result = streaming ? await agent.stream(prompt, options).result : await agent.run(prompt, options);
  return { requests: watched.requests, events: untimed(events) as unknown[], result: untimed(result) as RunResult<unknown> };
}

describe('a run recorded against the Anthropic wire, replayed offline', () => {
  it.each([false, true])('makes the same requests, emits the same events and returns the same result (streaming: %s)', async (streaming) => {
    const wire = await startServer();
    wire.enqueue(
      errorReply(429, { type: 'error', error: { type: 'rate_limit_error', message: 'Number of requests has exceeded your rate limit' } }, { 'retry-after-ms': '1' }),
      anthropicModel({ type: 'tool-call', name: 'lookup', intent: { product: 'widget' } }),
      // Past the decoder (it cannot enforce `maximum`): Keel re-asks with feedback.
      anthropicModel({ type: 'answer', intent: { sku: 'ABC-12', quantity: 40 } }),
      anthropicModel({ type: 'answer', intent: { sku: 'ABC-12', quantity: 2 } }),
    );
    const path = join(mkdtempSync(join(tmpdir(), 'keel-cassette-')), 'order.json');
    const recorded = await runOnce(cassette(anthropic({ baseURL: wire.url, apiKey: API_KEY }), { path, mode: 'record' }), streaming);
    expect(asComplete(recorded.result).value).toEqual({ sku: 'ABC-12', quantity: 2 });
    expect(recorded.result.attempts.map((attempt) => attempt.errorKind)).toEqual(['rate-limit', 'ok', 'schema-fail', 'ok']);
    expect(wire.requests).toHaveLength(4);
    await wire.close();

    // The server is gone: every answer now comes from the file.
    const replayed = await runOnce(cassette(anthropic({ baseURL: wire.url, apiKey: 'sk-ant-api03-AnotherKeyNeverUsed000000' }), { path, mode: 'replay' }), streaming);
    expect(replayed.requests).toEqual(recorded.requests);
    expect(replayed.events).toEqual(recorded.events);
    expect(replayed.result).toEqual(recorded.result);
    expect(replayed.events.length).toBeGreaterThan(20);

    const file = readFileSync(path, 'utf8');
    expect(file).not.toContain(API_KEY);
    expect(file).not.toContain('authorization');

    // A changed prompt is not in the cassette: the miss names the message that differs.
    const changed = await runOnce(cassette(anthropic({ baseURL: wire.url, apiKey: 'unused-key' }), { path, mode: 'replay' }), streaming, 'Three widgets, please.').catch((error: unknown) => error);
    // The run stops at once (a miss is a bad request, never retried); its error carries the miss.
    if (!ReliabilityFailFastError.isInstance(changed)) throw new Error(`expected the run to stop, got ${String(changed)}`);
    expect(changed.errorKind).toBe('bad-request');
    expect(changed.attempts).toHaveLength(1);
    expect(changed.cause).toMatchObject({ name: 'CassetteError', problem: 'unrecorded' });
    expect(changed.message).toContain('first differs at messages[0] (user):\n  recorded:  {"content":"Two widgets, please.","role":"user"}\n  requested: {"content":"Three widgets, please.","role":"user"}');
  });
});
