import { describe, expect, it } from 'vitest';
import { Agent, type ModelResponse, ReliabilityFailFastError } from '../index';
import { type ModelProviderV1 } from '@keel/provider';
import { asComplete } from '../testing/index';

/**
 * A provider's answer is read once, into Keel's own copy, before anything uses it: getters that
 * throw (at once or on a later read), Proxies and unknown finish reasons are a `bad-response`
 * (retried, then a typed stop) or normalised — never a raw error, and never an outcome that
 * depends on whether anyone listens.
 */

const usage = { inputTokens: 1, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0 };
const answer = (text = 'ok'): ModelResponse => ({ content: [{ type: 'text', text }], text, finishReason: 'stop', usage });
const trap = () => {
  throw new Error('trap');
};

/** `field` of a valid answer becomes a getter: throwing at once, or only from the second read. */
const withGetter = (field: keyof ModelResponse, from: 'first read' | 'second read') => () => {
  const base = answer();
  let reads = 0;
  return Object.defineProperty({ ...base }, field, {
    enumerable: true,
    get: () => {
      reads++;
      if (from === 'first read' || reads > 1) trap();
      return base[field];
    },
  });
};

const hostile: Record<string, () => unknown> = {
  'a throwing finishReason getter': withGetter('finishReason', 'first read'),
  'a throwing usage getter': withGetter('usage', 'first read'),
  'a content getter that throws from its second read': withGetter('content', 'second read'),
  'a usage getter that throws from its second read': withGetter('usage', 'second read'),
  'a finishReason getter that throws from its second read': withGetter('finishReason', 'second read'),
  'a content list whose item getter throws': () => {
    const content: unknown[] = [];
    Object.defineProperty(content, 0, { enumerable: true, get: trap });
    return { ...answer(), content };
  },
  'a part whose type getter throws': () => ({ ...answer(), content: [Object.defineProperty({}, 'type', { get: trap })] }),
};

function provider(make: () => unknown): ModelProviderV1 & { calls: number } {
  const model = {
    specificationVersion: 'v1' as const,
    name: 'hostile',
    calls: 0,
    generate: async () => {
      model.calls++;
      return make() as ModelResponse;
    },
    async *stream() {
      model.calls++;
      yield { type: 'finish' as const, response: make() as ModelResponse };
    },
  };
  return model;
}

async function outcome(make: () => unknown, options: { listen: boolean; stream: boolean }) {
  const model = provider(make);
  let builder = Agent.create({ provider: model, model: 'm' });
  if (options.listen) builder = builder.on('model.response', () => undefined).on('model.content', () => undefined);
  const agent = builder.build();
  const settled = await (options.stream ? agent.stream('go').result : agent.run('go')).then(
    (result) => ({ value: asComplete(result).value as unknown, error: undefined }),
    (error: unknown) => ({ value: undefined, error }),
  );
  return { ...settled, calls: model.calls };
}

// Concurrent: each case waits out the default backoff (about 1.5 s) on its own clock.
describe.concurrent.each(Object.entries(hostile))('a response with %s', (_name, make) => {
  it('ends the same way with or without listeners, streamed or not: a value or a bad-response stop, never a crash', async ({ expect }) => {
    const modes = [
      { listen: false, stream: false },
      { listen: true, stream: false },
      { listen: false, stream: true },
      { listen: true, stream: true },
    ];
    const outcomes = await Promise.all(modes.map((mode) => outcome(make, mode)));
    const summary = (result: (typeof outcomes)[number]) =>
      result.error === undefined
        ? { value: result.value, calls: result.calls }
        : { errorKind: (result.error as ReliabilityFailFastError).errorKind, isStop: ReliabilityFailFastError.isInstance(result.error), readable: String((result.error as Error).message).includes('could not be read'), calls: result.calls };
    const first = summary(outcomes[0] as (typeof outcomes)[number]);
    // Either the copy was read once (a value), or the answer broke the spec (a retried bad-response stop).
    expect([{ value: 'ok', calls: 1 }, { errorKind: 'bad-response', isStop: true, readable: true, calls: 3 }]).toContainEqual(first);
    // Whatever it is, listeners and streaming never change it.
    for (const result of outcomes.slice(1)) expect(summary(result)).toEqual(first);
  });
});

it('a getter that throws only after the first read never reaches the run: the answer is copied', async () => {
  for (const field of ['content', 'usage', 'finishReason'] as const) {
    const { value, error } = await outcome(withGetter(field, 'second read'), { listen: true, stream: false });
    expect(error).toBeUndefined();
    expect(value).toBe('ok');
  }
});

it('a response changed by the provider after it returned does not change the kept messages', async () => {
  const returned = answer('original');
  const model: ModelProviderV1 = {
    specificationVersion: 'v1',
    name: 'mutating',
    generate: async () => {
      setTimeout(() => {
        (returned.content as unknown as { text: string }[])[0]!.text = 'changed';
        (returned as { text: string }).text = 'changed';
      }, 0);
      return returned;
    },
  };
  const result = await Agent.create({ provider: model, model: 'm' }).build().run('go');
  await new Promise((resolve) => setTimeout(resolve, 5));
  expect(result.text).toBe('original');
  expect(result.messages.at(-1)).toEqual({ role: 'assistant', content: [{ type: 'text', text: 'original' }] });
});

it('an unknown finish reason reads as "other", in the result and its steps', async () => {
  const model: ModelProviderV1 = { specificationVersion: 'v1', name: 'odd', generate: async () => ({ ...answer(), finishReason: { not: 'a reason' } as never }) };
  const result = await Agent.create({ provider: model, model: 'm' }).build().run('go');
  expect(result.finishReason).toBe('other');
  expect(result.steps[0]?.finishReason).toBe('other');
});

it("without an output schema the value is the response's text, as the result's text is", async () => {
  const model: ModelProviderV1 = { specificationVersion: 'v1', name: 'split', generate: async () => ({ ...answer('from content'), text: 'from text' }) };
  const result = asComplete(await Agent.create({ provider: model, model: 'm' }).build().run('go'));
  expect(result.value).toBe(result.text);
});

describe.concurrent('stream parts are read guarded', () => {
  const streaming = (parts: () => AsyncIterable<unknown>): ModelProviderV1 & { calls: number } => {
    const model = {
      specificationVersion: 'v1' as const,
      name: 'streaming',
      calls: 0,
      generate: async () => answer(),
      stream: () => {
        model.calls++;
        return parts() as AsyncIterable<never>;
      },
    };
    return model;
  };

  it('a part whose getter throws is a bad-response, retried', async ({ expect }) => {
    const model = streaming(async function* () {
      yield Object.defineProperty({}, 'type', { get: trap });
    });
    const error = await Agent.create({ provider: model, model: 'm' }).build().stream('go').result.catch((thrown: unknown) => thrown);
    expect(ReliabilityFailFastError.isInstance(error)).toBe(true);
    expect((error as ReliabilityFailFastError).errorKind).toBe('bad-response');
    expect(model.calls).toBe(3);
  });

  it('a text delta that is not a string never reaches the reader; the answer does', async ({ expect }) => {
    const model = streaming(async function* () {
      yield { type: 'text-delta', text: { not: 'text' } };
      yield { type: 'text-delta', text: 'ok' };
      yield { type: 'finish', response: answer() };
    });
    const stream = Agent.create({ provider: model, model: 'm' }).build().stream('go');
    const deltas: unknown[] = [];
    for await (const part of stream) if (part.type === 'text-delta') deltas.push(part.text);
    expect(deltas).toEqual(['ok']);
    expect(asComplete(await stream.result).value).toBe('ok');
  });
});

describe('a provider stream Keel stops reading is closed', () => {
  const tracked = (after: 'finish' | 'a broken part') => {
    const state = { closed: false, pulledAfter: 0 };
    const model: ModelProviderV1 = {
      specificationVersion: 'v1',
      name: 'tracked',
      generate: async () => answer(),
      async *stream() {
        try {
          yield after === 'finish' ? { type: 'finish' as const, response: answer() } : (null as never);
          state.pulledAfter++;
          yield { type: 'text-delta' as const, text: 'after the end' };
        } finally {
          state.closed = true;
        }
      },
    };
    return { model, state };
  };

  it('after finish: nothing more is read, and its finally runs', async () => {
    const { model, state } = tracked('finish');
    const result = asComplete(await Agent.create({ provider: model, model: 'm' }).build().stream('go').result);
    expect(result.value).toBe('ok');
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(state.pulledAfter).toBe(0);
    expect(state.closed).toBe(true);
  });

  it('after a broken part: closed before the retry', async () => {
    const { model, state } = tracked('a broken part');
    await Agent.create({ provider: model, model: 'm', maxAttempts: 1 }).build().stream('go').result.catch(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(state.pulledAfter).toBe(0);
    expect(state.closed).toBe(true);
  });
});
