import { Type } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import { Agent, AgentConfigurationError, type JournalEntry, tool } from '../../index';
import type { ModelRequest } from '../../index';
import { estimateFrameTokens } from '../../context/estimate-tokens';
import { type ScriptedReply, scriptedModel } from '../../testing/index';
import { recorder } from '../../testing/event-recorder';
import { manyTools } from './many-tools-fixture';

/** A model that needs refund_order: it searches until the tool is sent, calls it, then answers. */
const needsRefund = () =>
  scriptedModel((request): ScriptedReply => {
    const sent = (request.tools ?? []).map((entry) => entry.name);
    if (request.messages.some((message) => message.role === 'tool' && message.content.some((part) => part.toolName === 'refund_order'))) return 'Refunded $50.';
    if (sent.includes('refund_order')) return { toolCalls: [{ name: 'refund_order', arguments: { orderId: 'A-1', amount: 50 } }] };
    return { toolCalls: [{ name: 'tool_search', arguments: { query: 'refund an order' } }] };
  }, { capabilities: { contextWindow: 32_000 } });

const toolTokens = (request: ModelRequest | undefined) => estimateFrameTokens({ tools: request?.tools });

describe('tool search', () => {
  it('sends deferred tools only once found: 200 tools cost at most 5% of a 32k window, and the model finds and calls refund_order in 2 extra steps', async () => {
    const model = needsRefund();
    const events = recorder('tools.loaded');
    const result = await events.attach(Agent.create({ provider: model, model: 'm' }).tools(manyTools(true))).build().run('Refund order A-1, $50.');

    expect(result.text).toBe('Refunded $50.');
    expect(model.requests[0]?.tools?.map((entry) => entry.name)).toEqual(['tool_search']);
    expect(toolTokens(model.requests[0])).toBeLessThanOrEqual(32_000 * 0.05);
    // Found, then sent from the next step on; called validated.
    expect(model.requests[1]?.tools?.map((entry) => entry.name)).toContain('refund_order');
    expect(result.toolCalls.map((call) => [call.toolName, call.isError])).toEqual([['tool_search', false], ['refund_order', false]]);
    expect(result.steps).toHaveLength(3);
    expect(events.of('tools.loaded')[0]).toMatchObject({ step: 1, toolNames: expect.arrayContaining(['refund_order']) });

    const plain = scriptedModel('ok', { capabilities: { contextWindow: 200_000 } });
    await Agent.create({ provider: plain, model: 'm' }).tools(manyTools(undefined)).build().run('hi');
    console.info(`200 tools: ${toolTokens(plain.requests[0])} tool tokens sent whole, ${toolTokens(model.requests[0])} deferred (${((toolTokens(model.requests[0]) / 32_000) * 100).toFixed(2)}% of a 32k window), ${toolTokens(model.requests[1])} after one search`);
    expect(toolTokens(plain.requests[0])).toBeGreaterThan(20 * toolTokens(model.requests[0]));
  });

  it('a call to a tool not sent yet runs validated (it is loaded by the call); an unknown one gets feedback naming the search tool', async () => {
    const model = scriptedModel([{ toolCalls: [{ name: 'refund_order', arguments: { orderId: 'A-1', amount: '50' } }, { name: 'refund', arguments: {} }] }, 'done']);
    const result = await Agent.create({ provider: model, model: 'm' }).tools(manyTools(true)).build().run('Refund.');
    expect(result.toolCalls[0]).toMatchObject({ toolName: 'refund_order', arguments: { orderId: 'A-1', amount: 50 }, isError: false });
    expect(result.toolCalls[1]).toMatchObject({ isError: true, errorCode: 'unknown-tool' });
    expect(result.toolCalls[1]?.output).toContain('tool_search finds 200 more by keywords');
    expect(result.toolCalls[1]?.output).not.toContain('billing_get_record');
    expect(model.requests[1]?.tools?.map((entry) => entry.name)).toEqual(['refund_order', 'tool_search']);
  });

  it('a re-ask of a deferred tool\'s arguments sends that tool, not every deferred one', async () => {
    const model = scriptedModel([{ toolCalls: [{ id: 'r1', name: 'refund_order', arguments: { orderId: 'A-1', amount: 'fifty' } }] }, { toolCalls: [{ id: 'r1', name: 'refund_order', arguments: { orderId: 'A-1', amount: 50 } }] }, 'done']);
    const result = await Agent.create({ provider: model, model: 'm' }).tools(manyTools(true)).build().run('Refund.');
    expect(result.toolCalls[0]).toMatchObject({ toolName: 'refund_order', arguments: { amount: 50 }, isError: false });
    expect(model.requests[1]?.toolChoice).toEqual({ type: 'tool', name: 'refund_order' });
    expect(model.requests[1]?.tools?.map((entry) => entry.name)).toEqual(['refund_order', 'tool_search']);
  });

  it('defers every tool past toolSearch.threshold, except those marked defer: false', async () => {
    const always = tool({ name: 'lookup', description: 'Looks an order up', input: Type.Object({ orderId: Type.String() }), defer: false, execute: () => 'paid' });
    const model = scriptedModel('ok');
    await Agent.create({ provider: model, model: 'm', toolSearch: { threshold: 10 } }).tools(manyTools(undefined)).tool(always).build().run('hi');
    expect(model.requests[0]?.tools?.map((entry) => entry.name)).toEqual(['lookup', 'tool_search']);
    const under = scriptedModel('ok');
    await Agent.create({ provider: under, model: 'm', toolSearch: { threshold: 10 } }).tool(always).build().run('hi');
    expect(under.requests[0]?.tools?.map((entry) => entry.name)).toEqual(['lookup']);
  });

  it('refuses a bad threshold, a bad defer and a tool named tool_search beside deferred tools', () => {
    const build = (create: () => unknown) => {
      try {
        create();
      } catch (error) {
        return AgentConfigurationError.isInstance(error) ? error.message : 'other';
      }
      return 'built';
    };
    expect(build(() => Agent.create({ provider: scriptedModel('ok'), model: 'm', toolSearch: { threshold: -1 } }).build())).toContain('toolSearch.threshold');
    expect(build(() => tool({ name: 'x', description: 'x', input: Type.Object({}), defer: 'yes' as unknown as boolean, execute: () => 1 }))).toContain('defer');
    const named = tool({ name: 'tool_search', description: 'mine', input: Type.Object({}), execute: () => 1 });
    expect(build(() => Agent.create({ provider: scriptedModel('ok'), model: 'm' }).tools(manyTools(true)).tool(named).build())).toContain('tool_search');
  });
});

describe('the loaded tools are the run\'s state', () => {
  const agentOf = (model = needsRefund()) => Agent.create({ provider: model, model: 'm', id: 'refunds', stateKey: 'k'.repeat(32) }).tools(manyTools(true)).build();

  it('survive a run stopped with iter and continued from its journal elsewhere', async () => {
    const journal: JournalEntry[] = [];
    for await (const step of agentOf().iter('Refund order A-1, $50.')) {
      journal.push(...step.entries);
      if (step.state.loadedTools?.includes('refund_order') && step.state.next.type === 'ask-model') break;
    }
    expect(journal.some((entry) => entry.loadedTools?.includes('refund_order'))).toBe(true);
    const model = needsRefund();
    const result = await agentOf(model).iter({ journal: JSON.parse(JSON.stringify(journal)) as JournalEntry[] }).result;
    expect(result.text).toBe('Refunded $50.');
    // The continued run sends what it sent before it stopped: the loaded tool, no search again.
    expect(model.requests[0]?.tools?.map((entry) => entry.name)).toContain('refund_order');
    expect(result.toolCalls.map((call) => call.toolName)).toEqual(['tool_search', 'refund_order']);
  });

  it('survive a suspension for approval: the resumed run sends the tools it loaded before it suspended', async () => {
    const lookup = tool({ name: 'lookup', description: 'Looks an order up', input: Type.Object({ orderId: Type.String() }), needsApproval: true, execute: () => 'paid $50' });
    // Searches, then looks the order up (approval: the run suspends), then refunds it with the tool it found before.
    const model = () =>
      scriptedModel((request): ScriptedReply => {
        const done = new Set(request.messages.flatMap((message) => (message.role === 'tool' ? message.content.map((part) => part.toolName) : [])));
        if (done.has('refund_order')) return 'Refunded $50.';
        if (done.has('lookup')) return (request.tools ?? []).some((entry) => entry.name === 'refund_order') ? { toolCalls: [{ name: 'refund_order', arguments: { orderId: 'A-1', amount: 50 } }] } : 'refund_order is gone';
        if (done.has('tool_search')) return { toolCalls: [{ name: 'lookup', arguments: { orderId: 'A-1' } }] };
        return { toolCalls: [{ name: 'tool_search', arguments: { query: 'refund an order' } }] };
      });
    const build = (provider: ReturnType<typeof model>) => Agent.create({ provider, model: 'm', id: 'refunds', stateKey: 'k'.repeat(32) }).tools(manyTools(true)).tool(lookup).build();
    const suspended = await build(model()).run('Refund order A-1, $50.');
    if (suspended.status !== 'suspended') throw new Error('the run did not suspend');
    expect(suspended.state.loadedTools).toEqual(['refund_order']);
    const resumedModel = model();
    const resumed = await build(resumedModel).resume(JSON.parse(JSON.stringify(suspended.state)), { approve: [suspended.pendingApprovals[0]?.toolCallId ?? ''] });
    expect(resumed.text).toBe('Refunded $50.');
    expect(resumedModel.requests[0]?.tools?.map((entry) => entry.name)).toContain('refund_order');
  });
});
