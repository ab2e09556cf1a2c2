import { Type } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import { Agent, tool } from '../index';
import { memoryRunStore } from '../durable/memory-run-store';
import { scriptedModel } from '../testing/index';
import type { UIMessageChunk } from './ui-message-chunk';

async function read<T>(stream: ReadableStream<T>): Promise<T[]> {
  const reader = stream.getReader();
  const chunks: T[] = [];
  for (let next = await reader.read(); !next.done; next = await reader.read()) chunks.push(next.value);
  return chunks;
}

/** A support agent whose refund desk (an agent called as a tool) has a refund tool that needs approval. */
function supportWithDesk(durable = false) {
  const refunds: string[] = [];
  const refund = tool({ name: 'refund', description: 'refunds an order', input: Type.Object({ order: Type.String() }), needsApproval: true, execute: ({ order }) => (refunds.push(order), `refunded ${order}`) });
  const deskModel = scriptedModel([{ toolCalls: [{ id: 'r1', name: 'refund', arguments: { order: 'A7' } }] }, 'A7 is refunded.', { toolCalls: [{ id: 'r1', name: 'refund', arguments: { order: 'A7' } }] }, 'A7 was not refunded.']);
  const desk = Agent.create({ provider: deskModel, model: 'm' }).tool(refund).build();
  const model = scriptedModel([{ toolCalls: [{ id: 'p1', name: 'desk', arguments: { message: 'refund A7' } }] }, 'Done: A7 is refunded.']);
  const builder = Agent.create({ provider: model, model: 'm' }).tool(desk.asTool({ name: 'desk', description: 'the refund desk' }));
  const agent = durable ? builder.durable(memoryRunStore()).build() : builder.build();
  return { agent, refunds, model, deskModel };
}

describe('a tool of an agent called as a tool that needs approval', () => {
  it('suspends the run at the root; resumed with the decision, the agent goes on inside the call and its tool runs once', async () => {
    const { agent, refunds, model, deskModel } = supportWithDesk();
    const first = await agent.run('refund A7');
    expect(first.status).toBe('suspended');
    if (first.status !== 'suspended') return;
    expect(first.pendingApprovals).toHaveLength(1);
    expect(first.pendingApprovals[0]).toMatchObject({ toolCallId: 'p1', toolName: 'desk', nested: { agent: 'desk', depth: 1, pending: [{ toolCallId: 'r1', toolName: 'refund', arguments: { order: 'A7' } }] } });
    expect(refunds).toEqual([]);
    const resumed = await agent.resume(first.state, { approve: ['p1'] });
    expect(resumed.status).toBe('complete');
    expect(resumed.text).toBe('Done: A7 is refunded.');
    expect(resumed.toolCalls.find((call) => call.toolCallId === 'p1')?.output).toBe('A7 is refunded.');
    expect(refunds).toEqual(['A7']);
    // The desk was asked twice (the refund call, its answer), the root twice: every call counted once.
    expect(deskModel.calls).toBe(2);
    expect(model.calls).toBe(2);
    expect(resumed.usage.modelCalls).toBe(4);
    await expect(agent.resume(first.state, { approve: ['p1'] })).rejects.toThrow(/resumed/);
    expect(refunds).toEqual(['A7']);
  });

  it('a rejection reaches the agent inside the call: its tool does not run and its model reads why', async () => {
    const { agent, refunds, deskModel } = supportWithDesk();
    const first = await agent.run('refund A7');
    if (first.status !== 'suspended') throw new Error('expected a suspension');
    const resumed = await agent.resume(first.state, { reject: [{ id: 'p1', reason: 'no receipt' }] });
    expect(refunds).toEqual([]);
    expect(JSON.stringify(deskModel.requests[1]?.messages)).toContain('no receipt');
    expect(resumed.status).toBe('complete');
  });

  it('streams the approval request on the calling run’s call, naming the nested tool, and the resumed stream goes on inside the agent', async () => {
    const { agent, refunds } = supportWithDesk();
    const first = agent.stream('refund A7');
    const chunks: UIMessageChunk<string>[] = await read(first.toUIMessageStream());
    const state = await first.result;
    if (state.status !== 'suspended') throw new Error('expected a suspension');
    expect(chunks.find((chunk) => chunk.type === 'tool-approval-request')).toEqual({ type: 'tool-approval-request', approvalId: `${state.state.suspensionId}:p1`, toolCallId: 'p1' });
    const asked = chunks.filter((chunk) => chunk.type === 'data-agent-tool').at(-1);
    expect(asked).toMatchObject({ data: { agent: 'desk', depth: 1, toolCallId: 'p1', call: { toolCallId: 'r1', toolName: 'refund', state: 'approval-requested', input: { order: 'A7' } } } });
    const resumed: UIMessageChunk<string>[] = await read(agent.resumeStream(state.state, { approve: ['p1'] }).toUIMessageStream());
    const tools = resumed.filter((chunk) => chunk.type === 'data-agent-tool');
    expect(tools.at(-1)).toMatchObject({ id: asked?.type === 'data-agent-tool' ? asked.id : '', data: { call: { toolName: 'refund', state: 'output-available', output: 'refunded A7' } } });
    expect(resumed.find((chunk) => chunk.type === 'tool-output-available')).toEqual({ type: 'tool-output-available', toolCallId: 'p1', output: 'A7 is refunded.' });
    expect(refunds).toEqual(['A7']);
  });

  it('a durable calling run resumes the same way: the nested tool runs once', async () => {
    const { agent, refunds } = supportWithDesk(true);
    const first = await agent.run('refund A7');
    if (first.status !== 'suspended') throw new Error('expected a suspension');
    const resumed = await agent.resume(first.state, { approve: ['p1'] });
    expect(resumed.text).toBe('Done: A7 is refunded.');
    expect(refunds).toEqual(['A7']);
  });
});
