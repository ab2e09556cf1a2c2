import { describe, expect, it } from 'vitest';
import { AbortedError } from '../index';
import type { ModelRequest, ModelStreamPart } from '../index';
import { ScriptExhaustedError, scriptedModel } from './index';

const request = (content: string): ModelRequest => ({ model: 'test-model', messages: [{ role: 'user', content }] });

async function collect(parts: AsyncIterable<ModelStreamPart>): Promise<ModelStreamPart[]> {
  const collected: ModelStreamPart[] = [];
  for await (const part of parts) collected.push(part);
  return collected;
}

describe('scriptedModel', () => {
  it('is a v1 provider named "scripted" unless told otherwise', () => {
    expect(scriptedModel('x').specificationVersion).toBe('v1');
    expect(scriptedModel('x').name).toBe('scripted');
    expect(scriptedModel('x', { name: 'demo' }).name).toBe('demo');
  });

  it('answers every call with a single value', async () => {
    const model = scriptedModel('always this');
    const first = await model.generate(request('a'), {});
    const second = await model.generate(request('b'), {});
    expect(first.text).toBe('always this');
    expect(second.content).toEqual([{ type: 'text', text: 'always this' }]);
    expect(first.finishReason).toBe('stop');
    expect(first.modelId).toBe('test-model');
    expect(model.calls).toBe(2);
  });

  it('answers one array entry per call, with tool calls, finish reason and usage', async () => {
    const model = scriptedModel([
      { toolCalls: [{ name: 'lookup', arguments: { q: 'x' } }, { id: 'mine', name: 'other', arguments: {} }] },
      { text: 'cut', finishReason: 'length', usage: { inputTokens: 7, outputTokens: 3 } },
    ]);

    const first = await model.generate(request('a'), {});
    const second = await model.generate(request('b'), {});

    expect(first.content).toEqual([
      { type: 'tool-call', id: 'call_1_1', name: 'lookup', arguments: { q: 'x' } },
      { type: 'tool-call', id: 'mine', name: 'other', arguments: {} },
    ]);
    expect(first.finishReason).toBe('tool-calls');
    expect(first.text).toBe('');
    expect(second.finishReason).toBe('length');
    expect(second.usage).toEqual({ inputTokens: 7, outputTokens: 3, cacheReadTokens: 0, cacheWriteTokens: 0 });
  });

  it('estimates usage from characters when none is scripted', async () => {
    const model = scriptedModel('12345678');
    const response = await model.generate(request('x'.repeat(40)), {});
    expect(response.usage).toEqual({ inputTokens: 10, outputTokens: 2, cacheReadTokens: 0, cacheWriteTokens: 0 });
  });

  it('answers from a function of the request and the call number', async () => {
    const model = scriptedModel((received, call) => {
      const last = received.messages.at(-1);
      return `${call}: ${last?.role === 'user' ? last.content : '?'}`;
    });
    expect((await model.generate(request('hello'), {})).text).toBe('1: hello');
    expect((await model.generate(request('again'), {})).text).toBe('2: again');
  });

  it('records every request in order', async () => {
    const model = scriptedModel(['a', 'b']);
    const first = request('one');
    const second = request('two');
    await model.generate(first, {});
    await model.generate(second, {});
    expect(model.requests).toEqual([first, second]);
  });

  it('throws ScriptExhaustedError with a clear message when the array runs out', async () => {
    const model = scriptedModel(['only answer']);
    await model.generate(request('a'), {});

    const error = await model.generate(request('b'), {}).catch((thrown: unknown) => thrown);

    expect(ScriptExhaustedError.isInstance(error)).toBe(true);
    expect((error as ScriptExhaustedError).call).toBe(2);
    expect((error as Error).message).toBe('Scripted model ran out: call 2 was made but the script has 1 answer');
    expect((error as ScriptExhaustedError).retryable).toBe(false);
  });
});

describe('scriptedModel', () => {
  it('throws a scripted Error as a provider fault, then carries on with the script', async () => {
    const fault = Object.assign(new Error('overloaded'), { status: 529 });
    const model = scriptedModel([fault, 'recovered']);

    await expect(model.generate(request('a'), {})).rejects.toBe(fault);
    expect((await model.generate(request('b'), {})).text).toBe('recovered');
  });

  it('waits delayMs and answers', async () => {
    const model = scriptedModel({ text: 'late', delayMs: 5 });
    expect((await model.generate(request('a'), {})).text).toBe('late');
  });

  it('stops waiting with AbortedError when the signal aborts during delayMs', async () => {
    // A minute-long delay: if the abort were ignored, the test would time out.
    const model = scriptedModel({ text: 'never', delayMs: 60_000 });
    const controller = new AbortController();
    const pending = model.generate(request('a'), { signal: controller.signal });
    controller.abort(new Error('stop'));

    const error = await pending.catch((thrown: unknown) => thrown);

    expect(AbortedError.isInstance(error)).toBe(true);
    expect((error as Error).cause).toBe(controller.signal.reason);
  });

  it('rejects at once, without recording the request, when the signal is already aborted', async () => {
    const model = scriptedModel('x');
    const controller = new AbortController();
    controller.abort();

    await expect(model.generate(request('a'), { signal: controller.signal })).rejects.toSatisfy(AbortedError.isInstance);
    expect(model.calls).toBe(0);
    expect(model.requests).toHaveLength(0);
  });

  it('streams text deltas that join to the text, then a finish part with the response', async () => {
    const text = 'A streamed answer that is longer than one chunk.';
    const model = scriptedModel(text);
    const stream = model.stream;
    if (!stream) throw new Error('scriptedModel should stream');

    const parts = await collect(stream(request('a'), {}));

    const deltas = parts.filter((part) => part.type === 'text-delta');
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.map((part) => part.text).join('')).toBe(text);
    const last = parts.at(-1);
    expect(last?.type).toBe('finish');
    expect(last?.type === 'finish' ? last.response.text : undefined).toBe(text);
    expect(parts.filter((part) => part.type === 'finish')).toHaveLength(1);
  });

  it('streams tool calls as start, delta and complete call parts', async () => {
    const model = scriptedModel({ toolCalls: [{ id: 't1', name: 'lookup', arguments: { q: 'x' } }] });
    const stream = model.stream;
    if (!stream) throw new Error('scriptedModel should stream');

    const parts = await collect(stream(request('a'), {}));

    expect(parts.slice(0, 3)).toEqual([
      { type: 'tool-call-start', id: 't1', name: 'lookup' },
      { type: 'tool-call-delta', id: 't1', argumentsDelta: '{"q":"x"}' },
      { type: 'tool-call', call: { type: 'tool-call', id: 't1', name: 'lookup', arguments: { q: 'x' } } },
    ]);
    expect(parts[3]?.type).toBe('finish');
  });
});
