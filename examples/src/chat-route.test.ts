import { Agent } from '@keel/core';
import { scriptedModel } from '@keel/core/test';
import { type UIMessage, validateUIMessages } from 'ai';
import { describe, expect, it } from 'vitest';
import { weatherAgent, weatherScript } from './agents/weather-agent';
import { offlineTarget, supportAgent } from './approvals';
import { askRoute, chatRoute, chatWithApproval } from './chat-route';
import { serveRoute } from './node-route-server';

const post = (body: string) => new Request('http://127.0.0.1/api/chat', { method: 'POST', headers: { 'content-type': 'application/json' }, body });

describe('the chat route example', () => {
  it('answers useChat with the run as a UI message: text, tool calls with results, the answer', async () => {
    const lines: string[] = [];
    const message = await askRoute(chatRoute(weatherAgent().build()), 'Is it warmer in Paris or in London?', (line) => lines.push(line));
    expect(message?.role).toBe('assistant');
    expect(message?.parts.map((part) => part.type)).toEqual(['step-start', 'text', 'tool-get_weather', 'tool-get_weather', 'step-start', 'text']);
    expect(message?.parts[2]).toMatchObject({ state: 'output-available', input: { city: 'Paris' }, output: '18°C, light rain' });
    expect(lines.at(-1)).toBe('assistant: Paris is warmer: 18°C with light rain, against 15°C and overcast in London.');
  });

  it('answers with the stream headers useChat expects', async () => {
    const response = await chatRoute(weatherAgent().build())(post(JSON.stringify({ messages: [{ id: 'u1', role: 'user', parts: [{ type: 'text', text: 'Paris?' }] }] })));
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    expect(response.headers.get('x-vercel-ai-ui-message-stream')).toBe('v1');
    expect(await response.text()).toMatch(/data: \[DONE\]\n\n$/);
  });

  it('gives the agent the whole conversation: an earlier turn with its tool calls and results', async () => {
    const model = weatherScript();
    const route = chatRoute(weatherAgent({ provider: model, model: 'scripted' }).build());
    const first = await askRoute(route, 'Paris or London?', () => undefined);
    const second = scriptedModel('Tokyo is warmer still.');
    const followUp: UIMessage[] = [{ id: 'u1', role: 'user', parts: [{ type: 'text', text: 'Paris or London?' }] }, first as UIMessage, { id: 'u2', role: 'user', parts: [{ type: 'text', text: 'And Tokyo?' }] }];
    const response = await chatRoute(Agent.create({ provider: second, model: 'scripted' }).build())(post(JSON.stringify({ messages: followUp })));
    await response.text();
    const sent = second.requests[0]?.messages ?? [];
    expect(sent.map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'assistant', 'user']);
    expect(sent[2]).toMatchObject({ role: 'tool', content: [{ toolName: 'get_weather', output: '18°C, light rain', isError: false }, { output: '15°C, overcast' }] });
  });

  it.each([
    ['not JSON', '{', 'the body is not JSON'],
    ['no messages', '{"id":"chat-1"}', 'the body needs a non-empty messages array'],
    ['null', 'null', 'the body needs a non-empty messages array'],
  ])('refuses a body that is %s with a 400', async (_, body, error) => {
    const response = await chatRoute(weatherAgent().build())(post(body));
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error });
  });
});

describe('the approval round trip through the AI SDK chat client, over HTTP', () => {
  async function roundTrip(decision: 'approve' | 'reject') {
    const target = offlineTarget();
    const { agent, refunds } = supportAgent(target);
    const server = await serveRoute(chatRoute(agent));
    const lines: string[] = [];
    try {
      const chat = await chatWithApproval(server.url, 'My order A-1001 arrived damaged. I want my money back.', decision, (line) => lines.push(line));
      return { chat, refunds, lines, modelCalls: (target.provider as ReturnType<typeof scriptedModel>).calls };
    } finally {
      await server.close();
    }
  }

  it('asks, gets the approval request, approves, and reads the resumed stream to the answer: the refund ran once', async () => {
    const { chat, refunds, lines, modelCalls } = await roundTrip('approve');
    expect(lines).toContain('refund: {"orderId":"A-1001","amount":120,"reason":"delivered damaged"} → waiting for approval');
    expect(lines.at(-1)).toBe('assistant: Your order A-1001 has been refunded in full ($120).');
    expect(refunds).toEqual([{ orderId: 'A-1001', amount: 120 }]);
    // Lookup, refund, answer: the suspended step was never asked again.
    expect(modelCalls).toBe(3);
    expect(chat.status).toBe('ready');
    // One assistant message, continued by the resume; every message as the AI SDK validates it.
    expect(chat.messages.map((message) => message.role)).toEqual(['user', 'assistant']);
    await expect(validateUIMessages({ messages: chat.messages })).resolves.toHaveLength(2);
    const refund = chat.messages[1]?.parts.find((part) => part.type === 'tool-refund');
    expect(refund).toMatchObject({ state: 'output-available', output: 'refunded $120 on A-1001', approval: { approved: true } });
  });

  it('rejects: the call is denied, nothing is refunded, and the model answers from the rejection', async () => {
    const { chat, refunds, lines } = await roundTrip('reject');
    expect(refunds).toEqual([]);
    expect(lines.at(-1)).toMatch(/^assistant: I could not refund order A-1001: Error \[approval-rejected\]/);
    expect(chat.messages[1]?.parts.find((part) => part.type === 'tool-refund')).toMatchObject({ state: 'output-denied' });
    await expect(validateUIMessages({ messages: chat.messages })).resolves.toHaveLength(2);
  });
});
