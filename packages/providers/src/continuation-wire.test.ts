import { Agent } from '@keel/core';
import { Type } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import { anthropic } from './anthropic/anthropic-provider';
import { openai } from './openai/openai-provider';
import { jsonReply, respondReply, wireServerPerTest } from '@keel/wire-server';

const Order = Type.Object({ items: Type.Array(Type.Object({ sku: Type.String(), price: Type.Number() })) });
const ORDER = { items: Array.from({ length: 40 }, (_, index) => ({ sku: `SKU-${index}`, price: 1 + index / 2 })) };
const FULL = JSON.stringify(ORDER, null, 2);
const CUT = FULL.slice(0, 700);

const server = wireServerPerTest();

type Body = { messages: { role: string; content: unknown }[] };
const textOf = (content: unknown) => (typeof content === 'string' ? content : (content as { text?: string }[]).map((block) => block.text ?? '').join(''));

describe('continuation of a cut answer on the wire, through the vendor SDKs', () => {
  it('Anthropic: the second request ends with the cut output as an assistant prefill, and the answer is joined', async () => {
    const message = (text: string, stop: string) => ({
      id: 'msg_01', type: 'message', role: 'assistant', model: 'claude-sonnet-4-6', stop_sequence: null,
      content: [{ type: 'text', text }], stop_reason: stop,
      usage: { input_tokens: 40, output_tokens: Math.ceil(text.length / 4), cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
    });
    // A simulated Messages API: a trailing assistant turn is continued from where it ends.
    const answer = respondReply((request) => {
      const last = (request.body as Body).messages.at(-1);
      if (last?.role === 'assistant') return jsonReply(message(FULL.slice(textOf(last.content).length), 'end_turn'));
      return jsonReply(message(CUT, 'max_tokens'));
    });
    server().enqueue(answer, answer);
    const agent = Agent.create({ provider: anthropic({ baseURL: server().url, apiKey: 'test-key' }), model: 'claude-sonnet-4-6', maxTokens: 200 }).outputSchema(Order, { mode: 'prompt' }).build();
    const result = await agent.run('Extract the order');
    expect(result.value).toEqual(ORDER);
    const second = server().requests[1]?.body as Body;
    expect(second.messages.map((entry) => entry.role)).toEqual(['user', 'assistant']);
    expect(textOf(second.messages[1]?.content)).toBe(CUT.trimEnd());
    expect(result.attempts.map((attempt) => attempt.via)).toEqual([undefined, 'continuation']);
  });

  it('OpenAI-compatible: the cut output as an assistant message and an instruction; a repeated line is removed', async () => {
    const completion = (content: string, finish: string) => ({
      id: 'chatcmpl-1', object: 'chat.completion', created: 1741569952, model: 'gpt-4o-mini',
      choices: [{ index: 0, message: { role: 'assistant', content, refusal: null }, logprobs: null, finish_reason: finish }],
      usage: { prompt_tokens: 40, completion_tokens: Math.ceil(content.length / 4), total_tokens: 40 + Math.ceil(content.length / 4) },
    });
    const answer = respondReply((request) => {
      const messages = (request.body as Body).messages;
      const cut = messages.at(-2);
      // Asked to continue, this model starts again at the line the cut fell in.
      if (messages.at(-1)?.role === 'user' && cut?.role === 'assistant') {
        const written = textOf(cut.content);
        return jsonReply(completion(FULL.slice(written.lastIndexOf('\n') + 1), 'stop'));
      }
      return jsonReply(completion(CUT, 'length'));
    });
    server().enqueue(answer, answer);
    const agent = Agent.create({ provider: openai({ baseURL: server().url, apiKey: 'test-key' }), model: 'gpt-4o-mini', maxTokens: 200 }).outputSchema(Order, { mode: 'prompt' }).build();
    const result = await agent.run('Extract the order');
    expect(result.value).toEqual(ORDER);
    const second = server().requests[1]?.body as Body;
    expect(second.messages.map((entry) => entry.role)).toEqual(['user', 'assistant', 'user']);
    expect(textOf(second.messages[2]?.content)).toContain('Continue it exactly where it stopped');
  });
});
