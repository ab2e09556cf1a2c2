import type { ModelRequest, ModelResponse, ModelStreamPart, ToolCallPart } from '@keel/provider';
import { parseExact } from '@keel/reliability/internal';
import { describe, expect, it } from 'vitest';
import { anthropic } from './anthropic/anthropic-provider';
import { openai } from './openai/openai-provider';
import { collectStream } from './testing/collect-stream';
import { rawJsonReply, type SseEvent, sseReply, wireServerPerTest } from '@keel/wire-server';

/**
 * Issue 17: the arguments a model writes reach core as the text it wrote. Plain `JSON.parse` turns
 * `{"account": 9007199254740993}` into …992 and `"amount": 10, "amount": 10000` into 10000
 * without a word; core reads `argumentsText` with its exact parser and refuses both instead.
 */
const written = '{"account": 9007199254740993, "amount": 10, "amount": 10000}';
const tools = [{ name: 'transfer', description: 'Move money.', inputSchema: { type: 'object', properties: { account: { type: 'integer' }, amount: { type: 'number' } } } }];

const server = wireServerPerTest();

function toolCallOf(response: ModelResponse): ToolCallPart {
  const call = response.content.find((part): part is ToolCallPart => part.type === 'tool-call');
  if (call === undefined) throw new Error('no tool call');
  return call;
}

async function streamed(stream: AsyncIterable<ModelStreamPart>): Promise<{ response: ModelResponse; deltas: string; part: ToolCallPart }> {
  const parts = await collectStream(stream);
  const finish = parts.at(-1);
  if (finish?.type !== 'finish') throw new Error('no finish part');
  const part = parts.find((candidate) => candidate.type === 'tool-call');
  if (part?.type !== 'tool-call') throw new Error('no tool-call part');
  const deltas = parts.map((candidate) => (candidate.type === 'tool-call-delta' ? candidate.argumentsDelta : '')).join('');
  return { response: finish.response, deltas, part: part.call };
}

/** What core's exact parser makes of the text: both faults are refused, never a changed value. */
function exactReading(text: string | undefined) {
  return parseExact(text ?? '');
}

const anthropicEvents = (pieces: readonly string[]): SseEvent[] => [
  { event: 'message_start', data: { type: 'message_start', message: { id: 'msg_01Exact', type: 'message', role: 'assistant', model: 'claude-sonnet-4-6', content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 40, output_tokens: 1 } } } },
  { event: 'content_block_start', data: { type: 'content_block_start', index: 0, content_block: { type: 'tool_use', id: 'toolu_01Exact', name: 'transfer', input: {} } } },
  ...pieces.map((partial): SseEvent => ({ event: 'content_block_delta', data: { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: partial } } })),
  { event: 'content_block_stop', data: { type: 'content_block_stop', index: 0 } },
  { event: 'message_delta', data: { type: 'message_delta', delta: { stop_reason: 'tool_use', stop_sequence: null }, usage: { output_tokens: 30 } } },
  { event: 'message_stop', data: { type: 'message_stop' } },
];

const openAIChunk = (delta: Record<string, unknown>, finish: string | null = null): SseEvent => ({
  data: { id: 'chatcmpl-Exact', object: 'chat.completion.chunk', created: 1_795_000_000, model: 'gpt-4.1', choices: [{ index: 0, delta, finish_reason: finish }] },
});

describe('raw tool argument text reaches core untouched', () => {
  it('Anthropic, streaming: the input_json_delta pieces joined, byte for byte', async () => {
    server().enqueue(sseReply(anthropicEvents(['{"account": 90071992547', '40993, "amount": 10, "am', 'ount": 10000}'])));
    const request: ModelRequest = { model: 'claude-sonnet-4-6', messages: [{ role: 'user', content: 'Pay.' }], tools };
    const { response, deltas, part } = await streamed(anthropic({ baseURL: server().url, apiKey: 'test-key' }).stream!(request, {}));
    expect(part.argumentsText).toBe(written);
    expect(deltas).toBe(written);
    expect(toolCallOf(response).argumentsText).toBe(written);
    // `arguments` is JSON.parse's reading, which silently changes both values: why core reads the text.
    expect(part.arguments).toEqual({ account: 9_007_199_254_740_992, amount: 10_000 });
    expect(exactReading(part.argumentsText)).toMatchObject({ ok: false });
  });

  it('Anthropic, not streaming: the API sends input already parsed, so the text is its JSON (no rawer text exists)', async () => {
    server().enqueue(rawJsonReply(`{"id":"msg_01Exact","type":"message","role":"assistant","model":"claude-sonnet-4-6","content":[{"type":"tool_use","id":"toolu_01Exact","name":"transfer","input":{"account": 9007199254740993, "amount": 10000}}],"stop_reason":"tool_use","stop_sequence":null,"usage":{"input_tokens":40,"output_tokens":30}}`));
    const response = await anthropic({ baseURL: server().url, apiKey: 'test-key' }).generate({ model: 'claude-sonnet-4-6', messages: [{ role: 'user', content: 'Pay.' }], tools }, {});
    // The SDK read the body with JSON.parse: the long number was rounded in transit, before Keel saw it.
    expect(toolCallOf(response).argumentsText).toBe('{"account":9007199254740992,"amount":10000}');
  });

  it('OpenAI, not streaming: function.arguments as sent', async () => {
    server().enqueue(rawJsonReply(JSON.stringify({
      id: 'chatcmpl-Exact',
      object: 'chat.completion',
      created: 1_795_000_000,
      model: 'gpt-4.1',
      choices: [{ index: 0, finish_reason: 'tool_calls', message: { role: 'assistant', content: null, refusal: null, tool_calls: [{ id: 'call_Exact', type: 'function', function: { name: 'transfer', arguments: written } }] } }],
      usage: { prompt_tokens: 40, completion_tokens: 30, total_tokens: 70 },
    })));
    const response = await openai({ baseURL: server().url, apiKey: 'test-key' }).generate({ model: 'gpt-4.1', messages: [{ role: 'user', content: 'Pay.' }], tools }, {});
    const call = toolCallOf(response);
    expect(call.argumentsText).toBe(written);
    expect(call.arguments).toEqual({ account: 9_007_199_254_740_992, amount: 10_000 });
    expect(exactReading(call.argumentsText)).toMatchObject({ ok: false });
  });

  it('OpenAI, streaming: the argument deltas joined, byte for byte', async () => {
    server().enqueue(sseReply([
      openAIChunk({ role: 'assistant', content: null, tool_calls: [{ index: 0, id: 'call_Exact', type: 'function', function: { name: 'transfer', arguments: '' } }] }),
      openAIChunk({ tool_calls: [{ index: 0, function: { arguments: '{"account": 9007199254' } }] }),
      openAIChunk({ tool_calls: [{ index: 0, function: { arguments: '740993, "amount": 10, "amount": 10000}' } }] }),
      openAIChunk({}, 'tool_calls'),
      { data: '[DONE]' },
    ]));
    const { response, deltas, part } = await streamed(openai({ baseURL: server().url, apiKey: 'test-key' }).stream!({ model: 'gpt-4.1', messages: [{ role: 'user', content: 'Pay.' }], tools }, {}));
    expect(part.argumentsText).toBe(written);
    expect(deltas).toBe(written);
    expect(toolCallOf(response).argumentsText).toBe(written);
  });

  it('a call without arguments has no argumentsText (its arguments are {}), and broken text is kept as written', async () => {
    server().enqueue(sseReply(anthropicEvents([])), sseReply(anthropicEvents(['{"account": 12'])));
    const provider = anthropic({ baseURL: server().url, apiKey: 'test-key' });
    const request: ModelRequest = { model: 'claude-sonnet-4-6', messages: [{ role: 'user', content: 'Pay.' }], tools };
    const empty = await streamed(provider.stream!(request, {}));
    expect(empty.part).toEqual({ type: 'tool-call', id: 'toolu_01Exact', name: 'transfer', arguments: {} });
    const broken = await streamed(provider.stream!(request, {}));
    expect(broken.part).toMatchObject({ arguments: '{"account": 12', argumentsText: '{"account": 12' });
  });
});

describe('a tool_use block whose input arrives whole in content_block_start', () => {
  it('keeps that input (a proxy that streams no deltas) instead of reading the call as without arguments', async () => {
    const events = anthropicEvents([]).map((event) =>
      event.event === 'content_block_start' ? { ...event, data: { type: 'content_block_start', index: 0, content_block: { type: 'tool_use', id: 'toolu_01Exact', name: 'transfer', input: { account: 7, amount: 5 } } } } : event,
    );
    server().enqueue(sseReply(events));
    const { part } = await streamed(anthropic({ baseURL: server().url, apiKey: 'test-key' }).stream!({ model: 'claude-sonnet-4-6', messages: [{ role: 'user', content: 'Pay.' }], tools }, {}));
    expect(part).toEqual({ type: 'tool-call', id: 'toolu_01Exact', name: 'transfer', arguments: { account: 7, amount: 5 }, argumentsText: '{"account":7,"amount":5}' });
  });
});
