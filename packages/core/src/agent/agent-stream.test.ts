import { Type } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import { AbortedError, Agent, ReliabilityFailFastError, tool } from '../index';
import type { ModelProviderV1, ModelStreamPart } from '@keel/provider';
import { scriptedModel, asComplete } from '../testing/index';
import type { AgentStreamPart } from '../contracts/stream-part';

const Refund = Type.Object({ action: Type.Union([Type.Literal('refund'), Type.Literal('reject')]), amount: Type.Number() });

async function collect<T>(iterable: AsyncIterable<AgentStreamPart<T>>): Promise<AgentStreamPart<T>[]> {
  const parts: AgentStreamPart<T>[] = [];
  for await (const part of iterable) parts.push(part);
  return parts;
}

const textOf = (parts: readonly AgentStreamPart<unknown>[]) =>
  parts.map((part) => (part.type === 'text-delta' ? part.text : '')).join('');

describe('agent.stream', () => {
  it('streams text deltas, step boundaries and ends with the result', async () => {
    const model = scriptedModel('A fairly long answer that arrives in several chunks.');
    const agent = Agent.create({ provider: model, model: 'm' }).build();
    const parts = await collect(agent.stream('hi'));
    expect(parts[0]).toEqual({ type: 'step-start', step: 1 });
    expect(parts.filter((part) => part.type === 'text-delta').length).toBeGreaterThan(1);
    expect(textOf(parts)).toBe('A fairly long answer that arrives in several chunks.');
    const last = parts[parts.length - 1];
    expect(last?.type).toBe('result');
    if (last?.type === 'result') expect(last.result.text).toBe('A fairly long answer that arrives in several chunks.');
  });

  it('streams tool-call deltas and tool results between steps', async () => {
    const model = scriptedModel([{ toolCalls: [{ name: 'echo', arguments: { text: 'ping' } }] }, 'done']);
    const echo = tool({ name: 'echo', description: 'echo', input: Type.Object({ text: Type.String() }), execute: ({ text }) => text });
    const parts = await collect(Agent.create({ provider: model, model: 'm' }).tool(echo).build().stream('go'));
    const types = parts.map((part) => part.type);
    expect(types).toEqual(['step-start', 'tool-call-delta', 'tool-call-delta', 'tool-call', 'tool-result', 'step-end', 'step-start', 'text-delta', 'step-end', 'result']);
    const result = parts.find((part) => part.type === 'tool-result');
    expect(result?.type === 'tool-result' && result.record.output).toBe('ping');
  });

  it('buffers text until the output validates: the invalid attempt is never shown', async () => {
    const model = scriptedModel(['{"action":"refund","amount":"USD 50"}', '{"action":"refund","amount":50}']);
    const stream = Agent.create({ provider: model, model: 'm' }).outputSchema(Refund).build().stream('decide');
    const parts = await collect(stream);
    expect(textOf(parts)).toBe('{"action":"refund","amount":50}');
    expect(textOf(parts)).not.toContain('USD 50');
    expect(parts.some((part) => part.type === 'validation-failed' && part.attempt === 1)).toBe(true);
    expect(parts.some((part) => part.type === 'retry' && !part.discardStreamedText)).toBe(true);
    expect(asComplete(await stream.result).value).toEqual({ action: 'refund', amount: 50 });
  });

  it('pass-through streams every attempt and marks the retried one', async () => {
    const model = scriptedModel(['{"action":"refund","amount":"USD 50"}', '{"action":"refund","amount":50}']);
    const parts = await collect(Agent.create({ provider: model, model: 'm' }).outputSchema(Refund).build().stream('decide', { textMode: 'pass-through' }));
    const retryIndex = parts.findIndex((part) => part.type === 'retry');
    expect(retryIndex).toBeGreaterThan(0);
    const retry = parts[retryIndex];
    expect(retry?.type === 'retry' && retry.discardStreamedText).toBe(true);
    const before = textOf(parts.slice(0, retryIndex));
    const after = textOf(parts.slice(retryIndex));
    expect(before).toContain('USD 50');
    expect(after).toBe('{"action":"refund","amount":50}');
    const attemptsOf = (slice: readonly AgentStreamPart<unknown>[]) => new Set(slice.flatMap((part) => (part.type === 'text-delta' ? [part.attempt] : [])));
    expect(attemptsOf(parts.slice(0, retryIndex))).toEqual(new Set([1]));
    expect(attemptsOf(parts.slice(retryIndex))).toEqual(new Set([2]));
  });
});

describe('agent.stream', () => {
  it('a pass-through stream failing after its first chunk is reported, never retried', async () => {
    let calls = 0;
    const flaky: ModelProviderV1 = {
      specificationVersion: 'v1',
      name: 'flaky',
      generate: () => Promise.reject(new Error('not used')),
      async *stream(): AsyncIterable<ModelStreamPart> {
        calls++;
        yield { type: 'text-delta', text: '{"action":' };
        throw Object.assign(new Error('socket hang up'), { errorKind: 'network' });
      },
    };
    const stream = Agent.create({ provider: flaky, model: 'm' }).outputSchema(Refund).build().stream('decide', { textMode: 'pass-through' });
    const seen: AgentStreamPart<unknown>[] = [];
    await expect(
      (async () => {
        for await (const part of stream) seen.push(part);
      })(),
    ).rejects.toSatisfy((error: unknown) => ReliabilityFailFastError.isInstance(error) && error.errorKind === 'unknown' && error.message.includes('socket hang up'));
    await expect(stream.result).rejects.toBeDefined();
    expect(calls).toBe(1);
    expect(textOf(seen)).toBe('{"action":');
  });

  it('pass-through marks a retry as discarding text only when the failed attempt showed some', async () => {
    let calls = 0;
    const limited: ModelProviderV1 = {
      specificationVersion: 'v1',
      name: 'limited',
      generate: () => Promise.reject(new Error('not used')),
      async *stream(): AsyncIterable<ModelStreamPart> {
        calls++;
        if (calls === 1) throw Object.assign(new Error('rate limited'), { errorKind: 'rate-limit', retryAfterMs: 1 });
        const text = '{"action":"reject","amount":0}';
        yield { type: 'text-delta', text };
        yield { type: 'finish', response: { content: [{ type: 'text', text }], text, finishReason: 'stop', usage: { inputTokens: 1, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0 } } };
      },
    };
    const parts = await collect(Agent.create({ provider: limited, model: 'm' }).outputSchema(Refund).build().stream('decide', { textMode: 'pass-through' }));
    const retry = parts.find((part) => part.type === 'retry');
    expect(retry).toMatchObject({ type: 'retry', attempt: 1, errorKind: 'rate-limit', discardStreamedText: false });
  });

  it('a stream failing before any text was shown is retried like any transient error', async () => {
    let calls = 0;
    const recovering: ModelProviderV1 = {
      specificationVersion: 'v1',
      name: 'recovering',
      generate: () => Promise.reject(new Error('not used')),
      async *stream(): AsyncIterable<ModelStreamPart> {
        calls++;
        if (calls === 1) throw Object.assign(new Error('connection reset'), { errorKind: 'network', retryAfterMs: 1 });
        const response = { content: [{ type: 'text' as const, text: 'ok' }], text: 'ok', finishReason: 'stop' as const, usage: { inputTokens: 1, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0 } };
        yield { type: 'text-delta', text: 'ok' };
        yield { type: 'finish', response };
      },
    };
    const result = await Agent.create({ provider: recovering, model: 'm' }).build().stream('hi').result;
    expect(result.text).toBe('ok');
    expect(calls).toBe(2);
    expect(result.attempts.map((attempt) => attempt.errorKind)).toEqual(['network', 'ok']);
  });
});

describe('cancelling a stream', () => {
  it('breaking out of the loop cancels the run: no further model call, result rejects as aborted', async () => {
    const model = scriptedModel([{ toolCalls: [{ name: 'wait', arguments: {} }] }, 'never reached']);
    const wait = tool({
      name: 'wait',
      description: 'waits',
      input: Type.Object({}),
      execute: (_input, context) =>
        new Promise((resolve) => {
          context.signal.addEventListener('abort', () => resolve('stopped'), { once: true });
        }),
    });
    const stream = Agent.create({ provider: model, model: 'm' }).tool(wait).build().stream('go');
    for await (const part of stream) if (part.type === 'tool-call') break;
    await expect(stream.result).rejects.toSatisfy(AbortedError.isInstance);
    expect(model.calls).toBe(1);
  });

  it('cancel() rejects the result; the caller signal still aborts the stream', async () => {
    const slow = scriptedModel({ text: 'late', delayMs: 5000 });
    const stream = Agent.create({ provider: slow, model: 'm' }).build().stream('hi');
    stream.cancel();
    await expect(stream.result).rejects.toSatisfy(AbortedError.isInstance);

    const controller = new AbortController();
    const second = Agent.create({ provider: scriptedModel({ text: 'late', delayMs: 5000 }), model: 'm' }).build().stream('hi', { signal: controller.signal });
    controller.abort();
    await expect(second.result).rejects.toSatisfy(AbortedError.isInstance);
  });
});

describe('streams that break off', () => {
  it('a stream that ends without its final part after showing text is reported, not retried', async () => {
    let calls = 0;
    const cut: ModelProviderV1 = {
      specificationVersion: 'v1',
      name: 'cut',
      generate: () => Promise.reject(new Error('not used')),
      async *stream() {
        calls++;
        yield { type: 'text-delta' as const, text: 'Hel' };
      },
    };
    const error = await Agent.create({ provider: cut, model: 'm' }).build().stream('hi').result.catch((caught: unknown) => caught);
    expect(ReliabilityFailFastError.isInstance(error) && error.message).toContain('not retried');
    expect(calls).toBe(1);
  });

  it('an abort stops a stream that ignores the signal', async () => {
    const deaf: ModelProviderV1 = {
      specificationVersion: 'v1',
      name: 'deaf',
      generate: () => Promise.reject(new Error('not used')),
      async *stream() {
        yield { type: 'text-delta' as const, text: 'Hel' };
        await new Promise(() => undefined);
      },
    };
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 20);
    await expect(Agent.create({ provider: deaf, model: 'm' }).build().stream('hi', { signal: controller.signal }).result).rejects.toSatisfy(AbortedError.isInstance);
  });
});
