import { readFileSync } from 'node:fs';
import { AbortedError, type ModelProvider, type ModelRequest, type ModelStreamPart } from '@keel/core';
import { scriptedModel } from '@keel/core/test';
import { beforeEach, describe, expect, it } from 'vitest';
import { CassetteError } from '../errors/cassette-error';
import { RecordedCallError } from '../errors/recorded-call-error';
import { cassette } from './cassette';
import { ask, newCassettePath, offline } from '../testing/cassette-fixtures';

let path: string;
beforeEach(() => {
  path = newCassettePath();
});

/** The provider's stream of a request (every provider here streams). */
function streamOf(provider: ModelProvider, request: ModelRequest): AsyncIterable<ModelStreamPart> {
  if (!provider.stream) throw new Error(`${provider.name} does not stream`);
  return provider.stream(request, {});
}

async function collect(stream: AsyncIterable<ModelStreamPart>): Promise<ModelStreamPart[]> {
  const parts: ModelStreamPart[] = [];
  for await (const part of stream) parts.push(part);
  return parts;
}

describe('cassette() record and replay', () => {
  it('replays what was recorded, without calling the provider', async () => {
    const recorder = cassette(scriptedModel(['Paris.', 'Rome.']), { path, mode: 'record' });
    const first = await recorder.generate(ask('Capital of France?'), {});
    const second = await recorder.generate(ask('Capital of Italy?'), {});
    expect(recorder.recorded).toBe(2);

    const player = cassette(offline, { path, mode: 'replay' });
    expect(await player.generate(ask('Capital of Italy?'), {})).toEqual(second);
    expect(await player.generate(ask('Capital of France?'), {})).toEqual(first);
    expect(player.replayed).toBe(2);
  });

  it('replays identical requests in the order they were recorded, each once', async () => {
    const recorder = cassette(scriptedModel(['first', 'second']), { path, mode: 'record' });
    await recorder.generate(ask('Same?'), {});
    await recorder.generate(ask('Same?'), {});
    const player = cassette(offline, { path, mode: 'replay' });
    expect((await player.generate(ask('Same?'), {})).text).toBe('first');
    expect((await player.generate(ask('Same?'), {})).text).toBe('second');
    const miss = await player.generate(ask('Same?'), {}).catch((error: unknown) => error);
    expect(CassetteError.isInstance(miss)).toBe(true);
    expect((miss as CassetteError).problem).toBe('unrecorded');
    expect((miss as Error).message).toContain('recorded 2 times and is now asked once more');
  });

  it('fails a changed request with a miss naming the first message that differs from the closest recording', async () => {
    const recorder = cassette(scriptedModel(['Paris.', 'Fine.', 'Rome.']), { path, mode: 'record' });
    await recorder.generate(ask('Capital of France?'), {});
    const history: ModelRequest = { model: 'claude-sonnet-4-6', messages: [{ role: 'user', content: 'Hello' }, { role: 'assistant', content: [{ type: 'text', text: 'Hi!' }] }, { role: 'user', content: 'How are you today?' }] };
    await recorder.generate(history, {});
    await recorder.generate(ask('Capital of Italy?'), {});

    const player = cassette(offline, { path, mode: 'replay' });
    const changed = { ...history, messages: [...history.messages.slice(0, 2), { role: 'user' as const, content: 'How are you tonight?' }] };
    const miss = await player.generate(changed, {}).catch((error: unknown) => error);
    if (!CassetteError.isInstance(miss) || miss.problem !== 'unrecorded') throw new Error(`expected a miss, got ${String(miss)}`);
    expect(miss.difference).toEqual({ recording: 1, path: 'messages[2]', role: 'user', recorded: '{"content":"How are you today?","role":"user"}', requested: '{"content":"How are you tonight?","role":"user"}' });
    expect(miss.message).toContain('first differs at messages[2] (user)');
    expect(miss.errorKind).toBe('bad-request');
  });

  it('names a changed system prompt, and other fields, when the messages are the same', async () => {
    await cassette(scriptedModel('ok'), { path, mode: 'record' }).generate(ask('Hi', { maxTokens: 100 }), {});
    const player = cassette(offline, { path, mode: 'replay' });
    const system = await player.generate(ask('Hi', { maxTokens: 100, system: 'Answer at length.' }), {}).catch((error: unknown) => error);
    expect((system as CassetteError).difference?.path).toBe('system');
    const tokens = await player.generate(ask('Hi', { maxTokens: 200 }), {}).catch((error: unknown) => error);
    expect((tokens as CassetteError).difference).toMatchObject({ path: 'maxTokens', recorded: '100', requested: '200' });
    const streamed = await collect(streamOf(player, ask('Hi', { maxTokens: 100 }))).catch((error: unknown) => error);
    expect((streamed as CassetteError).difference).toMatchObject({ path: 'call', recorded: 'generate', requested: 'stream' });
  });

  it('auto answers what is recorded and records the rest, keeping both in the file', async () => {
    await cassette(scriptedModel('Paris.'), { path, mode: 'record' }).generate(ask('Capital of France?'), {});
    const model = scriptedModel('Rome.');
    const auto = cassette(model, { path, mode: 'auto' });
    expect((await auto.generate(ask('Capital of France?'), {})).text).toBe('Paris.');
    expect((await auto.generate(ask('Capital of Italy?'), {})).text).toBe('Rome.');
    expect(model.calls).toBe(1);
    expect([auto.replayed, auto.recorded]).toEqual([1, 1]);
    const player = cassette(offline, { path, mode: 'replay' });
    expect((await player.generate(ask('Capital of Italy?'), {})).text).toBe('Rome.');
    expect((await player.generate(ask('Capital of France?'), {})).text).toBe('Paris.');
  });

  it('record starts the file afresh', async () => {
    await cassette(scriptedModel('old'), { path, mode: 'record' }).generate(ask('Old question'), {});
    await cassette(scriptedModel('new'), { path, mode: 'record' }).generate(ask('New question'), {});
    const file = JSON.parse(readFileSync(path, 'utf8')) as { interactions: unknown[] };
    expect(file.interactions).toHaveLength(1);
    expect(JSON.stringify(file)).not.toContain('Old question');
  });

  it('records and replays a stream part by part', async () => {
    const recorder = cassette(scriptedModel({ text: 'A long answer that streams in several pieces.', toolCalls: [{ id: 'toolu_1', name: 'lookup', arguments: { q: 'x' } }] }), { path, mode: 'record' });
    const recorded = await collect(streamOf(recorder, ask('Stream it')));
    expect(recorded.length).toBeGreaterThan(4);
    const replayed = await collect(streamOf(cassette(offline, { path, mode: 'replay' }), ask('Stream it')));
    expect(replayed).toEqual(recorded);
  });
});

describe('cassette() record and replay', () => {
  it('records a stream that fails mid-way, and replays its parts and then its error', async () => {
    const failing: ModelProvider = {
      specificationVersion: 'v1',
      name: 'flaky',
      generate: () => Promise.reject(new Error('unused')),
      async *stream() {
        yield { type: 'text-delta', text: 'Half an ans' };
        throw Object.assign(new Error('overloaded'), { errorKind: 'overloaded', status: 529, retryable: true });
      },
    };
    const parts: ModelStreamPart[] = [];
    const recording = collect(streamOf(cassette(failing, { path, mode: 'record' }), ask('Stream it')));
    await expect(recording).rejects.toThrow('overloaded');
    const player = cassette(offline, { path, mode: 'replay' });
    const error = await (async () => {
      for await (const part of streamOf(player, ask('Stream it'))) parts.push(part);
    })().catch((thrown: unknown) => thrown);
    expect(parts).toEqual([{ type: 'text-delta', text: 'Half an ans' }]);
    expect(RecordedCallError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ name: 'Error', message: 'overloaded', errorKind: 'overloaded', status: 529, retryable: true });
  });

  it('replays a provider error with what classifies it, so the run retries as it did', async () => {
    const rateLimited = Object.assign(new Error('429 rate limited'), { name: 'ProviderError', errorKind: 'rate-limit', status: 429, retryAfterMs: 1200, headers: { 'x-api-key': 'sk-ant-api03-secretsecretsecret' } });
    const recorder = cassette(scriptedModel([rateLimited, 'ok']), { path, mode: 'record' });
    await expect(recorder.generate(ask('Hi'), {})).rejects.toBe(rateLimited);
    await recorder.generate(ask('Hi'), {});
    const player = cassette(offline, { path, mode: 'replay' });
    const replayed = await player.generate(ask('Hi'), {}).catch((error: unknown) => error);
    expect(replayed).toMatchObject({ name: 'ProviderError', message: '429 rate limited', errorKind: 'rate-limit', status: 429, retryAfterMs: 1200, retryable: true });
    expect((await player.generate(ask('Hi'), {})).text).toBe('ok');
    expect(readFileSync(path, 'utf8')).not.toContain('headers');
  });

  it('does not record an aborted call, and replays nothing once the signal is aborted', async () => {
    const controller = new AbortController();
    const model = scriptedModel({ text: 'late', delayMs: 60_000 });
    const recorder = cassette(model, { path, mode: 'auto' });
    const call = recorder.generate(ask('Slow?'), { signal: controller.signal });
    controller.abort();
    await expect(call).rejects.toSatisfy(AbortedError.isInstance);
    expect(recorder.recorded).toBe(0);
    await cassette(scriptedModel('fast'), { path, mode: 'record' }).generate(ask('Fast?'), {});
    const aborted = await cassette(offline, { path, mode: 'replay' }).generate(ask('Fast?'), { signal: AbortSignal.abort() }).catch((error: unknown) => error);
    expect(AbortedError.isInstance(aborted)).toBe(true);
  });

  it('matches requests whatever their key order, tool-call ids, and the ids and times tools made', async () => {
    const turn = (id: string, now: string, ticket: string): ModelRequest => ({
      model: 'm',
      system: 'Answer briefly.',
      messages: [
        { role: 'user', content: 'Weather?' },
        { role: 'assistant', content: [{ type: 'tool-call', id, name: 'weather', arguments: { city: 'Paris', unit: 'c' } }] },
        { role: 'tool', content: [{ type: 'tool-result', toolCallId: id, toolName: 'weather', output: `18 at ${now} (request ${ticket})`, isError: false }] },
      ],
    });
    await cassette(scriptedModel('Mild.'), { path, mode: 'record' }).generate(turn('toolu_01AAA', '2026-11-25T17:00:00Z', '3f2b8c1e-9d4a-4b7e-8f00-1234567890ab'), {});
    const reordered = turn('toolu_01BBB', '2026-11-26T09:30:12.123Z', '0c1d2e3f-4a5b-4c6d-8e7f-abcdefabcdef');
    const shuffled = { messages: reordered.messages, system: reordered.system, model: reordered.model } as ModelRequest;
    expect((await cassette(offline, { path, mode: 'replay' }).generate(shuffled, {})).text).toBe('Mild.');
    const file = readFileSync(path, 'utf8');
    expect(file).toContain('"id": "<call-1>"');
    expect(file).toContain('18 at <timestamp> (request <uuid>)');
  });

  it('passes the provider name, capabilities and schema lowering through', () => {
    const model = scriptedModel('x', { name: 'anthropic', capabilities: { nativeOutput: true }, lowerSchema: (schema) => ({ schema, changes: ['none'] }) });
    const wrapped = cassette(model, { path, mode: 'record' });
    expect(wrapped.name).toBe('anthropic');
    expect(wrapped.capabilities?.('m')).toEqual({ nativeOutput: true });
    expect(wrapped.lowerSchema?.({ type: 'object' }, 'output')).toEqual({ schema: { type: 'object' }, changes: ['none'] });
    expect(cassette({ specificationVersion: 'v1', name: 'plain', generate: offline.generate }, { path, mode: 'record' }).stream).toBeUndefined();
  });

  it('refuses bad options and a replay of a file that does not exist', () => {
    expect(() => cassette(scriptedModel('x'), { path, mode: 'play' as 'replay' })).toThrow("options.mode must be 'record', 'replay' or 'auto'");
    expect(() => cassette(scriptedModel('x'), { path: '', mode: 'replay' })).toThrow('options.path');
    expect(() => cassette({} as ModelProvider, { path, mode: 'replay' })).toThrow('must be a Keel model provider');
    const missing = (() => {
      try {
        return cassette(scriptedModel('x'), { path, mode: 'replay' });
      } catch (error) {
        return error;
      }
    })();
    expect(CassetteError.isInstance(missing) && missing.problem).toBe('missing');
  });
});
