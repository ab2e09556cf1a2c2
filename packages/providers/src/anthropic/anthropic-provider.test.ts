import { type ModelRequest, ProviderError } from '@keel/provider';
import { describe, expect, it } from 'vitest';
import { providerOnWire } from '../testing/provider-on-wire';
import { withToolSchemasChecked } from '../testing/sent-tool-schemas';
import { textResponse, textStreamParts } from '../testing/text-response';
import { collectStream, collectStreamFailure } from '../testing/collect-stream';
import {
  anthropicContextWindowStop,
  anthropicContextWindowStream,
  anthropicMaxTokens,
  anthropicMultiToolUse,
  anthropicOverloadedMidStream,
  anthropicRefusal,
  anthropicTextAnswer,
  anthropicTextStream,
  anthropicToolStream,
  anthropicToolUse,
} from '../testing/fixtures/anthropic-fixtures';
import { fullRequest, timeTool, toolRound, weatherTool } from '../testing/fixtures/keel-requests';
import { assertValidAnthropicRequest } from '../testing/validate-anthropic-request';
import { jsonReply, sseReply } from '@keel/wire-server';
import { anthropic } from './anthropic-provider';
import type { AnthropicProviderOptions } from './anthropic-provider';

const question: ModelRequest = { model: 'claude-sonnet-4-6', messages: [{ role: 'user', content: 'What is the capital of France?' }] };

// Every request the adapter sent must obey the Messages API rules.
const { server, provider, reply } = providerOnWire((baseURL, options: AnthropicProviderOptions = {}) => anthropic({ baseURL, apiKey: 'test-key', ...options }), assertValidAnthropicRequest);

describe('anthropic() generate', () => {
  it('answers text, with usage including cache reads', async () => {
    reply(jsonReply(anthropicTextAnswer));
    const response = await provider().generate(question, {});
    expect(response).toEqual(textResponse('The capital of France is Paris.', { modelId: 'claude-sonnet-4-6', responseId: 'msg_01XFDUDYJgAACzvnptvVoYEL' }, { inputTokens: 21, outputTokens: 10, cacheReadTokens: 1800, cacheWriteTokens: 0 }));
    const [request] = server().requests;
    expect(request).toMatchObject({ method: 'POST', path: '/v1/messages' });
    expect(request?.headers['authorization']).toBe('Bearer test-key');
    expect(request?.headers['anthropic-version']).toBeDefined();
  });

  it('returns tool calls with the input object as arguments', async () => {
    reply(jsonReply(anthropicToolUse));
    const response = await provider().generate({ ...question, tools: [weatherTool] }, {});
    expect(response.finishReason).toBe('tool-calls');
    expect(response.text).toBe("I'll check the weather in Paris.");
    expect(response.content[1]).toEqual({ type: 'tool-call', id: 'toolu_01A09q90qw90lq917835lq9', name: 'get_weather', arguments: { city: 'Paris', unit: 'celsius' }, argumentsText: '{"city":"Paris","unit":"celsius"}' });
  });

  it('returns every tool call of a multi-tool turn, in order', async () => {
    reply(jsonReply(anthropicMultiToolUse));
    const response = await provider().generate({ ...question, tools: [weatherTool] }, {});
    expect(response.content.filter((part) => part.type === 'tool-call').map((part) => part.id)).toEqual([
      'toolu_01Paris00000000000000001',
      'toolu_01Tokyo00000000000000002',
    ]);
  });

  it('reports truncation as length and refusal as refusal', async () => {
    reply(jsonReply(anthropicMaxTokens), jsonReply(anthropicRefusal));
    expect((await provider().generate(question, {})).finishReason).toBe('length');
    expect((await provider().generate(question, {})).finishReason).toBe('refusal');
  });

  it("uses the provider maxTokens when the request sets none, and the request's model", async () => {
    reply(jsonReply(anthropicTextAnswer));
    await provider({ maxTokens: 512 }).generate({ ...question, model: 'claude-haiku-4-5' }, {});
    expect(server().requests[0]?.body).toMatchObject({ model: 'claude-haiku-4-5', max_tokens: 512 });
  });

  it('refuses a request without a model id before sending anything', async () => {
    const error = await provider().generate({ ...question, model: '' }, {}).catch((caught: unknown) => caught);
    expect(ProviderError.isInstance(error) && error.errorKind).toBe('bad-request');
    expect(server().requests).toHaveLength(0);
  });

  it('sends the cached prefix with breakpoints and the ephemeral retry feedback after it', async () => {
    reply(jsonReply(anthropicTextAnswer));
    await provider({ cache: true }).generate(fullRequest, {});
    expect(withToolSchemasChecked(server().requests[0]?.body, fullRequest.tools ?? [], ['input_schema'])).toMatchSnapshot();
  });

  it('sends a forced tool choice as { type: "tool", name }', async () => {
    reply(jsonReply(anthropicToolUse));
    const request: ModelRequest = { ...question, messages: toolRound, tools: [weatherTool, timeTool], toolChoice: { type: 'tool', name: 'get_weather' } };
    await provider().generate(request, {});
    const body = server().requests[0]?.body as Record<string, unknown> | undefined;
    // The messages and tools map as the cached-prefix test's whole-conversation snapshot shows; here, what this request adds.
    expect({ tool_choice: body?.['tool_choice'], max_tokens: body?.['max_tokens'] }).toMatchInlineSnapshot(`
      {
        "max_tokens": 4096,
        "tool_choice": {
          "name": "get_weather",
          "type": "tool",
        },
      }
    `);
  });
});

describe('anthropic() stream', () => {
  it('streams text deltas and finishes with the whole response and usage', async () => {
    reply(sseReply(anthropicTextStream));
    const parts = await collectStream(provider().stream!(question, {}));
    expect(parts).toEqual(textStreamParts(['Hello', ', world', '!'], { modelId: 'claude-sonnet-4-6', responseId: 'msg_01StreamText0001' }, { inputTokens: 25, outputTokens: 15, cacheReadTokens: 1200, cacheWriteTokens: 300 }));
    expect(server().requests[0]?.body).toMatchObject({ stream: true });
  });

  it('streams a tool call: start, JSON deltas, the parsed call, then finish', async () => {
    reply(sseReply(anthropicToolStream));
    const parts = await collectStream(provider().stream!({ ...question, tools: [weatherTool] }, {}));
    const id = 'toolu_01T1x1fJ34qAmk2tNTrN7Up6';
    const call = { type: 'tool-call', id, name: 'get_weather', arguments: { city: 'Paris', unit: 'celsius' }, argumentsText: '{"city": "Paris", "unit": "celsius"}' };
    expect(parts.slice(0, -1)).toEqual([
      { type: 'text-delta', text: 'Checking the weather.' },
      { type: 'tool-call-start', id, name: 'get_weather' },
      { type: 'tool-call-delta', id, argumentsDelta: '{"city": "Pa' },
      { type: 'tool-call-delta', id, argumentsDelta: 'ris", "unit"' },
      { type: 'tool-call-delta', id, argumentsDelta: ': "celsius"}' },
      { type: 'tool-call', call },
    ]);
    expect(parts.at(-1)).toMatchObject({
      type: 'finish',
      response: { content: [{ type: 'text', text: 'Checking the weather.' }, call], finishReason: 'tool-calls', usage: { inputTokens: 472, outputTokens: 89 } },
    });
  });

  it('a model stopped at its context window is context-overflow, in a reply and in a stream', async () => {
    reply(jsonReply(anthropicContextWindowStop), sseReply(anthropicContextWindowStream));
    const error = await provider().generate(question, {}).catch((thrown: unknown) => thrown);
    expect(ProviderError.isInstance(error) && [error.errorKind, error.retryable]).toEqual(['context-overflow', false]);
    const streamed = await collectStreamFailure(provider().stream!(question, {}));
    expect(streamed.parts.map((part) => part.type)).toEqual(['text-delta', 'text-delta']);
    expect(ProviderError.isInstance(streamed.error) && streamed.error.errorKind).toBe('context-overflow');
  });

  it('maps an error event mid-stream by its type', async () => {
    reply(sseReply(anthropicOverloadedMidStream));
    const { error } = await collectStreamFailure(provider().stream!(question, {}));
    expect(ProviderError.isInstance(error) && error.errorKind).toBe('overloaded');
  });
});
