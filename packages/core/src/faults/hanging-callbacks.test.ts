import { Type } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import { AbortedError, Agent, type AgentBuilder, InMemoryStore, type MemoryStore, tool } from '../index';
import { scriptedModel } from '../testing/index';

/**
 * Total abort: every await on user code or on a store is raced against the run's signal. Each case
 * hangs one callback forever; the run must end with AbortedError within 1 s of the abort.
 */

const never = <T>(): Promise<T> => new Promise<T>(() => undefined);
const Answer = Type.Object({ n: Type.Number() });
const invalidThenValid = () => scriptedModel(['{"n": "x"}', '{"n": 1}']);

/** A Standard Schema whose validation never settles. */
const hangingSchema = {
  '~standard': { version: 1 as const, vendor: 'test', validate: (): Promise<{ value: { n: number } }> => never() },
};

const hangingStore = (part: 'load' | 'append'): MemoryStore => {
  const store = new InMemoryStore();
  return {
    load: part === 'load' ? () => never() : (id) => store.load(id),
    append: part === 'append' ? () => never() : (id, messages) => store.append(id, messages),
  };
};

const cases: Record<string, () => AgentBuilder<unknown>> = {
  'a PreCheck when': () =>
    Agent.create({ provider: scriptedModel('ok'), model: 'm' }).reliability({ preCheck: [{ kind: 'hang', then: 'continue', when: () => never() }] }) as AgentBuilder<unknown>,
  'a PostDecide when': () =>
    Agent.create({ provider: scriptedModel('ok'), model: 'm' }).reliability({ postDecide: [{ kind: 'hang', then: 'accept', when: () => never() }] }) as AgentBuilder<unknown>,
  "a rule's backoff function": () =>
    Agent.create({ provider: invalidThenValid(), model: 'm' })
      .outputSchema(Answer)
      .reliability({ postDecide: [{ kind: 'slow', then: 'retry', when: (scope) => scope.errorKind === 'schema-fail', backoff: () => never() }] }) as AgentBuilder<unknown>,
  "a rule's feedbackForLLM": () =>
    Agent.create({ provider: invalidThenValid(), model: 'm' })
      .outputSchema(Answer)
      .reliability({ postDecide: [{ kind: 'talk', then: 'retry', when: (scope) => scope.errorKind === 'schema-fail', feedbackForLLM: () => never() }] }) as AgentBuilder<unknown>,
  'a feedbackForLLM template': () => Agent.create({ provider: invalidThenValid(), model: 'm' }).outputSchema(Answer, { feedbackForLLM: () => never() }) as AgentBuilder<unknown>,
  'an async Standard Schema output validator': () => Agent.create({ provider: scriptedModel('{"n": 1}'), model: 'm' }).outputSchema(hangingSchema) as AgentBuilder<unknown>,
  'an async tool input validator': () =>
    Agent.create({ provider: scriptedModel([{ toolCalls: [{ name: 'probe', arguments: { n: 1 } }] }, 'done']), model: 'm' }).tool(
      tool({ name: 'probe', description: 'probe', input: hangingSchema, execute: () => 'x' }),
    ) as AgentBuilder<unknown>,
  'an outputFallback.fallback': () =>
    Agent.create({ provider: scriptedModel('{"n": "x"}'), model: 'm' })
      .outputSchema(Answer, { maxRetries: 0 })
      .outputFallback({ fallback: () => never() }) as AgentBuilder<unknown>,
  'memory.load': () => Agent.create({ provider: scriptedModel('ok'), model: 'm' }).memory(hangingStore('load')) as AgentBuilder<unknown>,
  'memory.append': () => Agent.create({ provider: scriptedModel('ok'), model: 'm' }).memory(hangingStore('append')) as AgentBuilder<unknown>,
  'a tool that ignores its signal': () =>
    Agent.create({ provider: scriptedModel([{ toolCalls: [{ name: 'probe', arguments: {} }] }, 'done']), model: 'm' }).tool(
      tool({ name: 'probe', description: 'probe', input: Type.Object({}), execute: () => never() }),
    ) as AgentBuilder<unknown>,
};

const ABORT_AFTER_MS = 30;

describe.each(Object.entries(cases))('a run whose %s never settles', (_name, make) => {
  it('ends with AbortedError within 1 s of its signal aborting', async () => {
    const agent = make().build();
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('caller gave up')), ABORT_AFTER_MS);
    const started = performance.now();
    const error = await agent.run('go', { signal: controller.signal }).catch((thrown: unknown) => thrown);
    expect(AbortedError.isInstance(error)).toBe(true);
    expect(performance.now() - started).toBeLessThan(ABORT_AFTER_MS + 1000);
  });

  it('ends with a timed-out AbortedError within 1 s of its timeoutMs', async () => {
    const agent = make().build();
    const started = performance.now();
    const error = await agent.run('go', { timeoutMs: ABORT_AFTER_MS }).catch((thrown: unknown) => thrown);
    expect(AbortedError.isInstance(error)).toBe(true);
    expect((error as AbortedError).timedOut).toBe(true);
    expect((error as AbortedError).message).toContain(`timeoutMs (${ABORT_AFTER_MS} ms)`);
    expect(performance.now() - started).toBeLessThan(ABORT_AFTER_MS + 1000);
  });
});

describe('run timeoutMs', () => {
  it('does not fire once the run is over, and refuses a bad value', async () => {
    const agent = Agent.create({ provider: scriptedModel('ok'), model: 'm' }).build();
    await expect(agent.run('go', { timeoutMs: 5_000 })).resolves.toMatchObject({ text: 'ok' });
    await expect(agent.run('go', { timeoutMs: Number.POSITIVE_INFINITY })).rejects.toThrow(/run\.timeoutMs/);
  });
});
