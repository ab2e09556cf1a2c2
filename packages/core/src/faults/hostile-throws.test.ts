import { Type } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import { AbortedError, KeelError } from '@keel/reliability';
import { Agent, type AgentBuilder, MemoryStoreError, tool } from '../index';
import { type ModelProviderV1 } from '@keel/provider';
import { scriptedModel } from '../testing/index';

/**
 * A thrown value whose every trap throws (a hostile Proxy), a throwing `toString`, a symbol: from a
 * provider, a tool, a guard, a rule, the feedback hook or the output fallback, none escapes raw.
 * The run ends with its value or a typed Keel error.
 */

const trap = () => {
  throw new Error('trap');
};
const hostileValues: Record<string, () => unknown> = {
  'a Proxy throwing on every trap': () => new Proxy({}, { get: trap, has: trap, getPrototypeOf: trap, ownKeys: trap, getOwnPropertyDescriptor: trap }),
  'an object whose toString throws': () => ({ toString: trap }),
  'a symbol': () => Symbol('thrown'),
};

const Answer = Type.Object({ n: Type.Number() });
const invalidThenValid = () => scriptedModel(['{"n": "x"}', '{"n": 1}']);

const sources: Record<string, (thrown: () => unknown) => AgentBuilder<unknown>> = {
  'a provider': (thrown) => {
    const provider: ModelProviderV1 = { specificationVersion: 'v1', name: 'hostile', generate: async () => { throw thrown(); } };
    return Agent.create({ provider, model: 'm' }) as AgentBuilder<unknown>;
  },
  'a tool': (thrown) =>
    Agent.create({ provider: scriptedModel([{ toolCalls: [{ name: 'probe', arguments: {} }] }, 'done']), model: 'm' }).tool(
      tool({ name: 'probe', description: 'probe', input: Type.Object({}), execute: () => { throw thrown(); } }),
    ) as AgentBuilder<unknown>,
  'a guard': (thrown) =>
    Agent.create({ provider: scriptedModel([{ toolCalls: [{ name: 'probe', arguments: {} }] }, 'done']), model: 'm' })
      .tool(tool({ name: 'probe', description: 'probe', input: Type.Object({}), execute: () => 'x' }))
      .guards([() => { throw thrown(); }]) as AgentBuilder<unknown>,
  "a rule's when": (thrown) =>
    Agent.create({ provider: scriptedModel('ok'), model: 'm' }).reliability({ postDecide: [{ kind: 'hostile', then: 'accept', when: () => { throw thrown(); } }] }) as AgentBuilder<unknown>,
  'a PreCheck when (async)': (thrown) =>
    Agent.create({ provider: scriptedModel('ok'), model: 'm' }).reliability({ preCheck: [{ kind: 'hostile', then: 'continue', when: () => Promise.reject(thrown()) }] }) as AgentBuilder<unknown>,
  'the feedback hook': (thrown) => Agent.create({ provider: invalidThenValid(), model: 'm' }).outputSchema(Answer, { feedbackForLLM: () => { throw thrown(); } }) as AgentBuilder<unknown>,
  "a memory store's load": (thrown) =>
    Agent.create({ provider: scriptedModel('ok'), model: 'm' }).memory({ load: () => { throw thrown(); }, append: async () => undefined }) as AgentBuilder<unknown>,
  "a memory store's append": (thrown) =>
    Agent.create({ provider: scriptedModel('ok'), model: 'm' }).memory({ load: async () => [], append: () => Promise.reject(thrown()) }) as AgentBuilder<unknown>,
  'a call wrapper': (thrown) =>
    Agent.create({ provider: scriptedModel('ok'), model: 'm' }).wrapCalls(() => { throw thrown(); }) as AgentBuilder<unknown>,
  'the output fallback': (thrown) =>
    Agent.create({ provider: scriptedModel('{"n": "x"}'), model: 'm' })
      .outputSchema(Answer, { maxRetries: 0 })
      .outputFallback({ fallback: () => { throw thrown(); } }) as AgentBuilder<unknown>,
};

describe.each(Object.entries(sources))('%s throwing', (_source, make) => {
  it.each(Object.entries(hostileValues))('%s: a value or a typed Keel error', async (_value, thrown) => {
    let outcome: unknown;
    try {
      outcome = await make(thrown).build().run('go');
    } catch (error) {
      expect(KeelError.isKeelError(error)).toBe(true);
      expect(typeof (error as Error).message).toBe('string');
      return;
    }
    expect(outcome).toMatchObject({ runId: expect.any(String) });
  });
});

describe('a memory store failing', () => {
  it('with a plain error: a MemoryStoreError naming the operation, the error as its cause', async () => {
    const failure = new Error('database down');
    const error = await Agent.create({ provider: scriptedModel('ok'), model: 'm' })
      .memory({ load: () => { throw failure; }, append: async () => undefined })
      .build()
      .run('go')
      .catch((thrown: unknown) => thrown);
    expect(MemoryStoreError.isInstance(error)).toBe(true);
    expect((error as MemoryStoreError).operation).toBe('load');
    expect((error as MemoryStoreError).cause).toBe(failure);
  });

  it('with a Keel error of its own (a busy conversation, say): that error, as it is', async () => {
    const own = new AbortedError({ message: 'the store gave up' });
    const error = await Agent.create({ provider: scriptedModel('ok'), model: 'm' })
      .memory({ load: async () => [], append: () => Promise.reject(own) })
      .build()
      .run('go')
      .catch((thrown: unknown) => thrown);
    expect(error).toBe(own);
  });
});
