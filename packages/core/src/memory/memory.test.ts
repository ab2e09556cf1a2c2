import { Type } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import { Agent, InMemoryStore, tool } from '../index';
import type { Message } from '../index';
import type { UserMessage } from '@keel/provider';
import { scriptedModel, asComplete } from '../testing/index';

/** Everything a message list says, as one string, to search for leaked text. */
const textOfAll = (messages: readonly Message[]) => JSON.stringify(messages);

describe('memory keeps only the accepted exchange', () => {
  it('stores [user, final answer] after an output retry, without the feedback or the rejected output', async () => {
    const store = new InMemoryStore();
    const rejected = '{"town": "Paris", "note": "REJECTED-OUTPUT"}';
    const accepted = '{"city":"Paris"}';
    const model = scriptedModel([rejected, accepted]);
    const agent = Agent.create({ provider: model, model: 'm' })
      .outputSchema(Type.Object({ city: Type.String() }))
      .memory(store)
      .build();

    const result = asComplete(await agent.run('Capital of France as JSON', { conversationId: 'c1' }));

    expect(result.value).toEqual({ city: 'Paris' });
    // The retry did carry ephemeral feedback and the rejected output to the model...
    const retryRequest = model.requests[1];
    const ephemeral = retryRequest?.messages.filter((message) => message.ephemeral) ?? [];
    expect(ephemeral).toHaveLength(2);
    const feedback = (ephemeral.find((message) => message.role === 'user') as UserMessage).content;
    expect(feedback.length).toBeGreaterThan(0);
    expect(textOfAll(ephemeral)).toContain('REJECTED-OUTPUT');

    // ...but neither is kept.
    const kept = await store.load('c1');
    expect(kept).toEqual([
      { role: 'user', content: 'Capital of France as JSON' },
      { role: 'assistant', content: [{ type: 'text', text: accepted }] },
    ]);
    expect(kept.some((message) => 'ephemeral' in message)).toBe(false);
    expect(textOfAll(kept)).not.toContain('REJECTED-OUTPUT');
    expect(textOfAll(kept)).not.toContain(feedback);
    expect(result.messages).toEqual(kept);
  });

  it('stores the tool call with its final arguments after a tool-argument re-ask, and no feedback', async () => {
    const store = new InMemoryStore();
    const received: unknown[] = [];
    const getOrder = tool({
      name: 'get_order',
      description: 'reads an order',
      input: Type.Object({ orderId: Type.Integer() }),
      execute: (input) => {
        received.push(input);
        return { status: 'shipped' };
      },
    });
    const model = scriptedModel([
      { toolCalls: [{ id: 'call-1', name: 'get_order', arguments: { orderId: 'BAD-ARGUMENT' } }] },
      { toolCalls: [{ id: 'call-1b', name: 'get_order', arguments: { orderId: 7 } }] },
      'Order 7 has shipped.',
    ]);
    const agent = Agent.create({ provider: model, model: 'm' }).tool(getOrder).memory(store).build();

    const result = await agent.run('Where is order 7?', { conversationId: 'c2' });

    expect(received).toEqual([{ orderId: 7 }]);
    const reask = model.requests[1];
    expect(reask?.toolChoice).toEqual({ type: 'tool', name: 'get_order' });
    const reaskFeedback = reask?.messages.filter((message) => message.ephemeral) ?? [];
    expect(reaskFeedback).toHaveLength(2);
    expect(textOfAll(reaskFeedback)).toContain('BAD-ARGUMENT');

    const kept = await store.load('c2');
    expect(kept).toEqual([
      { role: 'user', content: 'Where is order 7?' },
      { role: 'assistant', content: [{ type: 'tool-call', id: 'call-1', name: 'get_order', arguments: { orderId: 7 } }] },
      { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'call-1', toolName: 'get_order', output: '{"status":"shipped"}', isError: false }] },
      { role: 'assistant', content: [{ type: 'text', text: 'Order 7 has shipped.' }] },
    ]);
    expect(kept.some((message) => 'ephemeral' in message)).toBe(false);
    expect(textOfAll(kept)).not.toContain('BAD-ARGUMENT');
    expect(textOfAll(kept)).not.toContain('validation-failed');
    expect(result.messages).toEqual(kept);
    // The final step's request saw the corrected call, not the rejected one.
    expect(textOfAll(model.requests[2]?.messages ?? [])).not.toContain('BAD-ARGUMENT');
  });
});

describe('memory keeps only the accepted exchange', () => {
  it('sends the previous exchange of the conversation on the next run, and only that conversation', async () => {
    const store = new InMemoryStore();
    const model = scriptedModel(['Nice to meet you, Ada.', 'Your name is Ada.', 'I do not know your name.']);
    const agent = Agent.create({ provider: model, model: 'm' }).memory(store).build();

    await agent.run('My name is Ada.', { conversationId: 'ada' });
    const second = await agent.run('What is my name?', { conversationId: 'ada' });
    await agent.run('What is my name?', { conversationId: 'someone-else' });

    expect(model.requests[1]?.messages).toEqual([
      { role: 'user', content: 'My name is Ada.' },
      { role: 'assistant', content: [{ type: 'text', text: 'Nice to meet you, Ada.' }] },
      { role: 'user', content: 'What is my name?' },
    ]);
    expect(second.messages).toEqual([
      { role: 'user', content: 'What is my name?' },
      { role: 'assistant', content: [{ type: 'text', text: 'Your name is Ada.' }] },
    ]);
    expect(model.requests[2]?.messages).toEqual([{ role: 'user', content: 'What is my name?' }]);
    expect(await store.load('ada')).toHaveLength(4);
  });

  it('drops ephemeral messages from the caller’s input before they reach memory', async () => {
    const store = new InMemoryStore();
    const agent = Agent.create({ provider: scriptedModel('ok'), model: 'm' }).memory(store).build();

    await agent.run([
      { role: 'user', content: 'scratch note', ephemeral: true },
      { role: 'user', content: 'real question' },
    ]);

    expect(await store.load('default')).toEqual([
      { role: 'user', content: 'real question' },
      { role: 'assistant', content: [{ type: 'text', text: 'ok' }] },
    ]);
  });
});

describe('InMemoryStore', () => {
  it('returns an empty conversation for an unknown id', async () => {
    expect(await new InMemoryStore().load('nobody')).toEqual([]);
  });

  it('refuses ephemeral messages and keeps the conversation as it was', async () => {
    const store = new InMemoryStore();
    await store.append('c', [{ role: 'user', content: 'kept' }]);

    await expect(
      store.append('c', [
        { role: 'assistant', content: [{ type: 'text', text: 'would be kept' }] },
        { role: 'user', content: 'feedback', ephemeral: true },
      ]),
    ).rejects.toThrow(/ephemeral/);

    expect(await store.load('c')).toEqual([{ role: 'user', content: 'kept' }]);
  });

  it('keeps copies on append and hands out frozen messages in a new list from load', async () => {
    const store = new InMemoryStore();
    const original: { role: 'user'; content: string } = { role: 'user', content: 'original' };
    const part = { type: 'text' as const, text: 'answer' };
    await store.append('c', [original, { role: 'assistant', content: [part] }]);
    original.content = 'changed after append';
    part.text = 'changed after append';

    const loaded = (await store.load('c')) as Message[];
    expect(Object.isFrozen(loaded[0])).toBe(true);
    expect(Object.isFrozen((loaded[1] as unknown as { content: unknown[] }).content[0])).toBe(true);
    expect(() => {
      (loaded[0] as { content: string }).content = 'changed after load';
    }).toThrow(TypeError);
    loaded.push({ role: 'user', content: 'pushed after load' });

    expect(await store.load('c')).toEqual([
      { role: 'user', content: 'original' },
      { role: 'assistant', content: [{ type: 'text', text: 'answer' }] },
    ]);
  });
});

describe('memory stores learn which run calls them', () => {
  /** A store that records the calls an agent makes on it. */
  function recordingStore() {
    const calls: string[] = [];
    const inner = new InMemoryStore();
    const store = {
      load: async (id: string, run?: { runId: string; signal?: AbortSignal }) => {
        calls.push(`load ${id} ${run?.runId} ${run?.signal ? 'signal' : 'no-signal'}`);
        return inner.load(id);
      },
      append: async (id: string, messages: readonly Message[], run?: { runId: string }) => {
        calls.push(`append ${id} ${run?.runId}`);
        return inner.append(id, messages);
      },
      release: async (id: string, run: { runId: string }) => {
        calls.push(`release ${id} ${run.runId}`);
      },
    };
    return { calls, store };
  }

  it('passes the run id and signal to load and append, and does not release after an append', async () => {
    const { calls, store } = recordingStore();
    const agent = Agent.create({ provider: scriptedModel('hi'), model: 'm' }).memory(store).build();
    await agent.run('hello', { conversationId: 'c', runId: 'run-1', signal: new AbortController().signal });
    expect(calls).toEqual(['load c run-1 signal', 'append c run-1']);
  });

  it('releases what the load took when the run fails or aborts', async () => {
    const { calls, store } = recordingStore();
    const failing = Agent.create({ provider: scriptedModel(Object.assign(new Error('bad'), { status: 400 })), model: 'm' }).memory(store).build();
    await expect(failing.run('hello', { conversationId: 'c', runId: 'run-2' })).rejects.toThrow();
    const controller = new AbortController();
    const slow = Agent.create({ provider: scriptedModel({ text: 'late', delayMs: 5_000 }), model: 'm' }).memory(store).build();
    const aborted = slow.run('hello', { conversationId: 'c', runId: 'run-3', signal: controller.signal });
    setTimeout(() => controller.abort(), 20);
    await expect(aborted).rejects.toThrow();
    expect(calls).toEqual(['load c run-2 no-signal', 'release c run-2', 'load c run-3 signal', 'release c run-3']);
  });
});
