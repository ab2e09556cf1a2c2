import type { ModelRequest } from '@keel/provider';
import { describe, expect, it } from 'vitest';
import { providerOnWire } from '../testing/provider-on-wire';
import { withToolSchemasChecked } from '../testing/sent-tool-schemas';
import { textResponse, textStreamParts } from '../testing/text-response';
import { collectStream } from '../testing/collect-stream';
import { fullRequest, timeTool, toolRound, weatherTool } from '../testing/fixtures/keel-requests';
import {
  openAIBrokenArguments,
  openAIContentFilter,
  openAILength,
  openAIMultiToolCall,
  openAIRefusal,
  openAITextAnswer,
  openAITextStream,
  openAIToolStream,
} from '../testing/fixtures/openai-fixtures';
import { assertValidOpenAIRequest } from '../testing/validate-openai-request';
import { jsonReply, sseReply } from '@keel/wire-server';
import { openai } from './openai-provider';
import type { OpenAIProviderOptions } from './openai-provider';

const question: ModelRequest = { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'What is the capital of France?' }] };

// Every request the adapter sent must answer each tool call.
const { server, provider, reply } = providerOnWire((baseURL, options: OpenAIProviderOptions = {}) => openai({ baseURL: `${baseURL}/v1`, apiKey: 'test-key', ...options }), assertValidOpenAIRequest);

describe('openai() generate', () => {
  it('answers text, reporting cached prompt tokens apart from input tokens', async () => {
    reply(jsonReply(openAITextAnswer));
    expect(await provider().generate(question, {})).toEqual(textResponse('The capital of France is Paris.', { modelId: 'gpt-4o-mini-2024-07-18', responseId: 'chatcmpl-B9MBs8CjcvOU2jLn4n570S5qMJKcT' }, { inputTokens: 280, outputTokens: 8, cacheReadTokens: 1280, cacheWriteTokens: 0 }));
    expect(server().requests[0]).toMatchObject({ method: 'POST', path: '/v1/chat/completions', headers: { authorization: 'Bearer test-key' } });
  });

  it('returns every tool call with parsed arguments', async () => {
    reply(jsonReply(openAIMultiToolCall));
    const response = await provider().generate({ ...question, tools: [weatherTool] }, {});
    expect(response.finishReason).toBe('tool-calls');
    expect(response.content).toEqual([
      { type: 'tool-call', id: 'call_kVHGM4aPQkSEYxv1T3bDdQ2a', name: 'get_weather', arguments: { city: 'Paris' }, argumentsText: '{"city":"Paris"}' },
      { type: 'tool-call', id: 'call_pWQ8s1qLzYj3xJ7mM0nR5tKe', name: 'get_weather', arguments: { city: 'Tokyo' }, argumentsText: '{"city":"Tokyo"}' },
    ]);
  });

  it('passes unparseable arguments through as the raw string, for validation to report', async () => {
    reply(jsonReply(openAIBrokenArguments));
    const response = await provider().generate({ ...question, tools: [weatherTool] }, {});
    expect(response.content[0]).toMatchObject({ type: 'tool-call', arguments: '{"city": "Par' });
  });

  it('reports length, content filter and refusal', async () => {
    reply(jsonReply(openAILength), jsonReply(openAIContentFilter), jsonReply(openAIRefusal));
    expect((await provider().generate(question, {})).finishReason).toBe('length');
    expect((await provider().generate(question, {})).finishReason).toBe('content-filter');
    expect(await provider().generate(question, {})).toMatchObject({ finishReason: 'refusal', text: "I'm sorry, I can't help with that." });
  });
});

describe('openai() generate', () => {
  it('sends the whole conversation, with ephemeral feedback, as Chat Completions messages', async () => {
    reply(jsonReply(openAITextAnswer));
    await provider().generate({ ...fullRequest, model: 'gpt-4o-mini' }, {});
    expect(withToolSchemasChecked(server().requests[0]?.body, fullRequest.tools ?? [], ['function', 'parameters'])).toMatchInlineSnapshot(`
      {
        "max_tokens": 1024,
        "messages": [
          {
            "content": "You are a concise assistant.",
            "role": "system",
          },
          {
            "content": "Weather and time in Paris?",
            "role": "user",
          },
          {
            "content": "Let me check.",
            "role": "assistant",
            "tool_calls": [
              {
                "function": {
                  "arguments": "{"city":"Paris"}",
                  "name": "get_weather",
                },
                "id": "call_1",
                "type": "function",
              },
              {
                "function": {
                  "arguments": "{"city":"Paris"}",
                  "name": "get_time",
                },
                "id": "call_2",
                "type": "function",
              },
            ],
          },
          {
            "content": "{"tempC":18}",
            "role": "tool",
            "tool_call_id": "call_1",
          },
          {
            "content": "Clock service unavailable",
            "role": "tool",
            "tool_call_id": "call_2",
          },
          {
            "content": "It is 18°C.",
            "role": "assistant",
          },
          {
            "content": "Your answer was not valid JSON: expected an object with "tempC" and "time". Reply with JSON only.",
            "role": "user",
          },
        ],
        "model": "gpt-4o-mini",
        "stop": [
          "</answer>",
        ],
        "temperature": 0,
        "tool_choice": "auto",
        "tools": [
          {
            "function": {
              "description": "Current weather for a city.",
              "name": "get_weather",
              "parameters": "[inputSchema of get_weather]",
            },
            "type": "function",
          },
          {
            "function": {
              "description": "Current local time for a city.",
              "name": "get_time",
              "parameters": "[inputSchema of get_time]",
            },
            "type": "function",
          },
        ],
      }
    `);
  });
});

describe('openai() generate', () => {
  it('sends a forced tool choice and a structured-output schema', async () => {
    reply(jsonReply(openAIMultiToolCall));
    const request: ModelRequest = {
      ...question,
      messages: toolRound,
      tools: [weatherTool, timeTool],
      toolChoice: { type: 'tool', name: 'get_weather' },
      responseFormat: { type: 'json', name: 'answer', schema: { type: 'object', properties: { tempC: { type: 'number' } }, required: ['tempC'], additionalProperties: false }, strict: true },
    };
    await provider().generate(request, {});
    const body = server().requests[0]?.body as Record<string, unknown> | undefined;
    // The messages and tools map as the whole-conversation snapshot above shows; here, what this request adds.
    expect({ tool_choice: body?.['tool_choice'], response_format: body?.['response_format'] }).toMatchInlineSnapshot(`
      {
        "response_format": {
          "json_schema": {
            "name": "answer",
            "schema": {
              "additionalProperties": false,
              "properties": {
                "tempC": {
                  "type": "number",
                },
              },
              "required": [
                "tempC",
              ],
              "type": "object",
            },
            "strict": true,
          },
          "type": "json_schema",
        },
        "tool_choice": {
          "function": {
            "name": "get_weather",
          },
          "type": "function",
        },
      }
    `);
  });
});

describe('openai() keys', () => {
  it('serves a keyless OpenAI-compatible server when only a base URL is given', async () => {
    reply(jsonReply(openAITextAnswer));
    const saved = process.env['OPENAI_API_KEY'];
    delete process.env['OPENAI_API_KEY'];
    try {
      await openai({ baseURL: `${server().url}/v1` }).generate({ ...question, model: 'llama3.2' }, {});
    } finally {
      if (saved !== undefined) process.env['OPENAI_API_KEY'] = saved;
    }
    expect(server().requests[0]?.body).toMatchObject({ model: 'llama3.2' });
  });
});

describe('openai() stream', () => {
  it('streams text deltas and finishes with usage from the usage chunk', async () => {
    reply(sseReply(openAITextStream));
    const parts = await collectStream(provider().stream!(question, {}));
    expect(parts).toEqual(textStreamParts(['Hello', ', world', '!'], { modelId: 'gpt-4o-mini-2024-07-18', responseId: 'chatcmpl-B9MHDbslfkBeAs8l4bebGdFOJ6PeG' }, { inputTokens: 276, outputTokens: 4, cacheReadTokens: 1024, cacheWriteTokens: 0 }));
    expect(server().requests[0]?.body).toMatchObject({ stream: true, stream_options: { include_usage: true } });
  });

  it('streams tool-call argument deltas by index, then the parsed calls and finish', async () => {
    reply(sseReply(openAIToolStream));
    const parts = await collectStream(provider().stream!({ ...question, tools: [weatherTool] }, {}));
    const paris = 'call_DdmO9pD3xa9XTPNJ32zg2hcA';
    const tokyo = 'call_ABcnN7kX9aT8Q1L4bYw2ZkPq';
    expect(parts.slice(0, -1)).toEqual([
      { type: 'tool-call-start', id: paris, name: 'get_weather' },
      { type: 'tool-call-delta', id: paris, argumentsDelta: '{"ci' },
      { type: 'tool-call-delta', id: paris, argumentsDelta: 'ty": "Paris"}' },
      { type: 'tool-call-start', id: tokyo, name: 'get_weather' },
      { type: 'tool-call-delta', id: tokyo, argumentsDelta: '{"city": "Tokyo"}' },
      { type: 'tool-call', call: { type: 'tool-call', id: paris, name: 'get_weather', arguments: { city: 'Paris' }, argumentsText: '{"city": "Paris"}' } },
      { type: 'tool-call', call: { type: 'tool-call', id: tokyo, name: 'get_weather', arguments: { city: 'Tokyo' }, argumentsText: '{"city": "Tokyo"}' } },
    ]);
    expect(parts.at(-1)).toMatchObject({ type: 'finish', response: { finishReason: 'tool-calls', usage: { inputTokens: 95, outputTokens: 40 } } });
  });
});
