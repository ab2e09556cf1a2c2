import { Type } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import { Agent, ReliabilityFailFastError } from '../index';
import { type ModelProviderV1 } from '@keel/provider';

/**
 * A provider that breaks the model spec ends the run with a typed ReliabilityFailFastError of
 * kind `bad-response`, after the default transient retries (1 call + 2 retries) — never a
 * TypeError, never blamed on the validator.
 */

const usage = { inputTokens: 1, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0 };

const malformed: Record<string, () => unknown> = {
  'undefined': () => undefined,
  'null': () => null,
  'a string': () => 'hello',
  'no content': () => ({ text: 'hi', finishReason: 'stop', usage }),
  'non-array content': () => ({ content: 'hi', text: 'hi', finishReason: 'stop', usage }),
  'null content': () => ({ content: null, text: 'hi', finishReason: 'stop', usage }),
  'a null part': () => ({ content: [null], text: '', finishReason: 'stop', usage }),
  'a text part without text': () => ({ content: [{ type: 'text' }], text: '', finishReason: 'stop', usage }),
  'a part of unknown type': () => ({ content: [{ type: 'image' }], text: '', finishReason: 'stop', usage }),
  'a tool call without a name': () => ({ content: [{ type: 'tool-call', id: 'x', arguments: {} }], text: '', finishReason: 'tool-calls', usage }),
  'no text': () => ({ content: [], finishReason: 'stop', usage }),
};

function provider(answer: () => unknown, mode: 'return' | 'throw' = 'return'): ModelProviderV1 & { calls: number } {
  const model = {
    specificationVersion: 'v1' as const,
    name: 'broken',
    calls: 0,
    generate: async () => {
      model.calls++;
      if (mode === 'throw') throw answer();
      return answer() as never;
    },
  };
  return model;
}

async function failure(model: ModelProviderV1, withSchema: boolean) {
  const builder = Agent.create({ provider: model, model: 'm' });
  const agent = withSchema ? builder.outputSchema(Type.Object({ n: Type.Number() })).build() : builder.build();
  return agent.run('go').catch((thrown: unknown) => thrown);
}

// Concurrent: each case waits out the default backoff (about 1.5 s) on its own clock.
describe.concurrent.each([false, true])('with an output schema: %s', (withSchema) => {
  it.for(Object.entries(malformed))('a response that is %s', async ([_name, answer], { expect }) => {
    const model = provider(answer);
    const error = await failure(model, withSchema);
    expect(error).not.toBeInstanceOf(TypeError);
    expect(ReliabilityFailFastError.isInstance(error)).toBe(true);
    const failFast = error as ReliabilityFailFastError;
    expect(failFast.errorKind).toBe('bad-response');
    expect(failFast.kind).not.toBe('validator-error');
    expect(model.calls).toBe(3);
    expect(failFast.attempts.map((attempt) => attempt.errorKind)).toEqual(['bad-response', 'bad-response', 'bad-response']);
    expect(failFast.message).toContain("broke the model spec");
  });

  it.for([['undefined', undefined], ['null', null]] as const)('a provider that throws %s', async ([_name, value], { expect }) => {
    const model = provider(() => value, 'throw');
    const error = await failure(model, withSchema);
    expect(ReliabilityFailFastError.isInstance(error)).toBe(true);
    expect((error as ReliabilityFailFastError).errorKind).toBe('bad-response');
    expect(model.calls).toBe(3);
  });
});

it('recovers when a retry answers properly', async () => {
  let calls = 0;
  const model: ModelProviderV1 = {
    specificationVersion: 'v1',
    name: 'flaky',
    generate: async () => (++calls === 1 ? (undefined as never) : { content: [{ type: 'text', text: 'fine' }], text: 'fine', finishReason: 'stop', usage }),
  };
  const result = await Agent.create({ provider: model, model: 'm' }).build().run('go');
  expect(result.text).toBe('fine');
  expect(result.attempts.map((attempt) => attempt.errorKind)).toEqual(['bad-response', 'ok']);
});

describe('malformed streams', () => {
  const streaming = (stream: () => unknown): ModelProviderV1 => ({
    specificationVersion: 'v1',
    name: 'broken-stream',
    generate: async () => ({ content: [], text: '', finishReason: 'stop', usage }),
    stream: stream as never,
  });

  it.for([
    ['not an async iterable', (): unknown => 42],
    ['a null part', async function* (): AsyncGenerator<unknown> { yield null; }],
    ['a finish part without a response', async function* (): AsyncGenerator<unknown> { yield { type: 'finish' }; }],
  ] as const)('%s is a bad-response, never a TypeError', async ([_name, stream], { expect }) => {
    const agent = Agent.create({ provider: streaming(stream), model: 'm' }).reliability({ postDecide: [{ kind: 'stop', then: 'fail-fast', when: (scope) => scope.errorKind !== 'ok' }] }).build();
    const parts: unknown[] = [];
    const error = await (async () => {
      try {
        for await (const part of agent.stream('go')) parts.push(part);
      } catch (thrown) {
        return thrown;
      }
      return undefined;
    })();
    expect(ReliabilityFailFastError.isInstance(error)).toBe(true);
    expect((error as ReliabilityFailFastError).errorKind).toBe('bad-response');
  });
});
