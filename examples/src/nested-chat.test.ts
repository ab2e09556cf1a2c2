import { Agent, tool } from '@keel/core';
import { scriptedModel } from '@keel/core/test';
import { Type } from '@sinclair/typebox';
import { DefaultChatTransport, isToolUIPart, lastAssistantMessageIsCompleteWithApprovalResponses, validateUIMessages } from 'ai';
import { describe, expect, it } from 'vitest';
import { chatRoute } from './chat-route';
import { NodeChat } from './node-chat';
import { serveRoute } from './node-route-server';

/** A support agent that hands an order to its refund desk, an agent called as a tool with a tool of its own. */
function supportWithDesk() {
  const lookup = tool({ name: 'lookup', description: 'an order', input: Type.Object({ order: Type.String() }), execute: ({ order }) => `${order}: paid $50` });
  const deskModel = scriptedModel([{ text: 'Checking the order.', toolCalls: [{ id: 'd1', name: 'lookup', arguments: { order: 'A7' } }] }, 'A7 was paid $50.']);
  const desk = Agent.create({ provider: deskModel, model: 'scripted' }).tool(lookup).build();
  const model = scriptedModel([{ toolCalls: [{ id: 'p1', name: 'desk', arguments: { message: 'What was paid on A7?' } }] }, 'You paid $50 for A7.', 'Anything else?']);
  return { model, agent: Agent.create({ provider: model, model: 'scripted' }).tool(desk.asTool({ name: 'desk', description: 'the refund desk' })).build() };
}

describe('a nested agent through the AI SDK chat client, over HTTP', () => {
  it('shows the desk agent’s text and tool calls with its name and depth; every message validates and goes back as the conversation', async () => {
    const { agent, model } = supportWithDesk();
    const server = await serveRoute(chatRoute(agent));
    try {
      const chat = new NodeChat({ transport: new DefaultChatTransport({ api: server.url }) });
      await chat.sendMessage({ text: 'What did I pay for A7?' });
      await chat.settled();
      const parts = chat.lastMessage?.parts ?? [];
      expect(parts.find((part) => part.type === 'tool-desk')).toMatchObject({ state: 'output-available', output: 'A7 was paid $50.' });
      const texts = parts.flatMap((part) => (part.type === 'data-agent-text' ? [part.data] : []));
      expect(texts).toEqual([
        { agent: 'desk', depth: 1, toolCallId: 'p1', text: 'Checking the order.' },
        { agent: 'desk', depth: 1, toolCallId: 'p1', text: 'A7 was paid $50.' },
      ]);
      expect(parts.find((part) => part.type === 'data-agent-tool')).toMatchObject({ data: { agent: 'desk', depth: 1, call: { toolName: 'lookup', state: 'output-available', output: 'A7: paid $50' } } });
      await expect(validateUIMessages({ messages: chat.messages })).resolves.toHaveLength(2);
      // The next question sends the message back: the desk's parts are not the support agent's turns.
      await chat.sendMessage({ text: 'Thanks.' });
      await chat.settled();
      await expect(validateUIMessages({ messages: chat.messages })).resolves.toHaveLength(4);
      const sent = model.requests[2]?.messages ?? [];
      expect(sent.map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'assistant', 'user']);
      expect(JSON.stringify(sent)).not.toContain('lookup');
    } finally {
      await server.close();
    }
  });
});

/** The same desk, its refund tool needing approval: the approval is asked on the support agent's call to the desk. */
function supportWithApprovingDesk() {
  const refunds: string[] = [];
  const refund = tool({ name: 'refund', description: 'refunds an order', input: Type.Object({ order: Type.String() }), needsApproval: true, execute: ({ order }) => (refunds.push(order), `refunded ${order}`) });
  const deskModel = scriptedModel([{ toolCalls: [{ id: 'r1', name: 'refund', arguments: { order: 'A7' } }] }, 'A7 is refunded.']);
  const desk = Agent.create({ provider: deskModel, model: 'scripted' }).tool(refund).build();
  const model = scriptedModel([{ toolCalls: [{ id: 'p1', name: 'desk', arguments: { message: 'refund A7' } }] }, 'Done: A7 is refunded.']);
  return { refunds, deskModel, agent: Agent.create({ provider: model, model: 'scripted' }).tool(desk.asTool({ name: 'desk', description: 'the refund desk' })).build() };
}

describe('a nested approval through the AI SDK chat client, over HTTP', () => {
  it('asks on the desk call, naming the refund; approved, the root resumes inside the desk and the refund runs once', async () => {
    const { agent, refunds, deskModel } = supportWithApprovingDesk();
    const server = await serveRoute(chatRoute(agent));
    try {
      const chat = new NodeChat({ transport: new DefaultChatTransport({ api: server.url }), sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithApprovalResponses });
      await chat.sendMessage({ text: 'Refund A7, please.' });
      await chat.settled();
      const asked = chat.lastMessage?.parts.find((part) => part.type === 'tool-desk');
      expect(asked).toMatchObject({ state: 'approval-requested' });
      expect(chat.lastMessage?.parts.find((part) => part.type === 'data-agent-tool')).toMatchObject({ data: { agent: 'desk', depth: 1, toolCallId: 'p1', call: { toolName: 'refund', state: 'approval-requested' } } });
      await expect(validateUIMessages({ messages: chat.messages })).resolves.toHaveLength(2);
      expect(refunds).toEqual([]);
      await chat.addToolApprovalResponse({ id: asked && isToolUIPart(asked) && asked.state === 'approval-requested' ? asked.approval.id : '', approved: true });
      await chat.settled();
      expect(refunds).toEqual(['A7']);
      expect(deskModel.calls).toBe(2);
      const parts = chat.lastMessage?.parts ?? [];
      expect(parts.find((part) => part.type === 'tool-desk')).toMatchObject({ state: 'output-available', output: 'A7 is refunded.', approval: { approved: true } });
      expect(parts.find((part) => part.type === 'data-agent-tool')).toMatchObject({ data: { call: { toolName: 'refund', state: 'output-available', output: 'refunded A7' } } });
      expect(parts.at(-1)).toMatchObject({ type: 'text', text: 'Done: A7 is refunded.' });
      await expect(validateUIMessages({ messages: chat.messages })).resolves.toHaveLength(2);
    } finally {
      await server.close();
    }
  });
});
