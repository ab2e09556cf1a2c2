import { describe, expect, it } from 'vitest';
import { Agent, AgentConfigurationError, InMemoryStore, type MemoryStore } from '../index';
import { scriptedModel, asComplete } from '../testing/index';

/**
 * What a caller or a memory store hands a run is checked before the run reads it: a malformed
 * message list, or an option of the wrong type, is an `AgentConfigurationError` naming where it
 * came from — never a `TypeError` from deep in the run or a provider, and no model call is made.
 */

const malformedLists: Record<string, unknown> = {
  'not a list': { role: 'user', content: 'hi' },
  'a null message': [null],
  'a user message whose content is a number': [{ role: 'user', content: 42 }],
  'an assistant message whose content is a string': [{ role: 'assistant', content: 'hi' }],
  'an unknown role': [{ role: 'robot', content: 'hi' }],
  'a tool call without a name': [{ role: 'assistant', content: [{ type: 'tool-call', id: 'a', arguments: {} }] }],
  'a tool message with a null part': [{ role: 'tool', content: [null] }],
  'a message whose getter throws': [Object.defineProperty({}, 'role', { get: () => { throw new Error('trap'); } })],
};

async function refusal(run: (agent: ReturnType<typeof agentWith>['agent']) => Promise<unknown>, memory?: MemoryStore) {
  const { agent, model } = agentWith(memory);
  const error = await run(agent).catch((thrown: unknown) => thrown);
  return { error, calls: model.calls };
}

function agentWith(memory?: MemoryStore) {
  const model = scriptedModel('ok');
  const builder = Agent.create({ provider: model, model: 'm' });
  return { agent: (memory ? builder.memory(memory) : builder).build(), model };
}

describe.each(Object.entries(malformedLists))('%s', (_name, list) => {
  it('as the run input: refused as run.input, before any model call', async () => {
    const { error, calls } = await refusal((agent) => agent.run(list as never));
    expect(AgentConfigurationError.isInstance(error)).toBe(true);
    expect((error as AgentConfigurationError).setting).toBe('run.input');
    expect(calls).toBe(0);
  });

  it('loaded from memory: refused as memory.load, the store released, no model call', async () => {
    const released: string[] = [];
    const store: MemoryStore = { load: async () => list as never, append: async () => undefined, release: async (id) => void released.push(id) };
    const { error, calls } = await refusal((agent) => agent.run('hi'), store);
    expect(AgentConfigurationError.isInstance(error)).toBe(true);
    expect((error as AgentConfigurationError).setting).toBe('memory.load');
    expect(calls).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(released).toEqual(['default']);
  });
});

it('well-formed messages, and what the in-memory store keeps, pass the check', async () => {
  const store = new InMemoryStore();
  const { agent } = agentWith(store);
  await agent.run([{ role: 'system', content: 'be brief' }, { role: 'user', content: 'hi' }]);
  const second = asComplete(await agent.run('again'));
  expect(second.value).toBe('ok');
});

it('an input object whose message getter throws is refused as run.input', async () => {
  const input = Object.defineProperty({}, 'message', { get: () => { throw new Error('trap'); } });
  const error = await agentWith().agent.run(input as never).catch((thrown: unknown) => thrown);
  expect(AgentConfigurationError.isInstance(error)).toBe(true);
  expect((error as AgentConfigurationError).setting).toBe('run.input');
});

describe('run options', () => {
  it('null is no options', async () => {
    expect(asComplete(await agentWith().agent.run('hi', null as never)).value).toBe('ok');
  });

  it.each([
    ['run.signal', { signal: {} }],
    ['run.runId', { runId: 5 }],
    ['run.conversationId', { conversationId: {} }],
    ['run.timeoutMs', { timeoutMs: Number.NaN }],
    ['run.options', 'fast'],
  ])('%s of the wrong type is refused by run() and by stream().result', async (setting, options) => {
    const { agent, model } = agentWith();
    for (const settled of [agent.run('hi', options as never), agent.stream('hi', options as never).result]) {
      const error = await settled.catch((thrown: unknown) => thrown);
      expect(AgentConfigurationError.isInstance(error)).toBe(true);
      expect((error as AgentConfigurationError).setting).toBe(setting);
    }
    expect(model.calls).toBe(0);
  });
});
