import type { ModelRequest } from '@keel/provider';
import { describe, expect, it } from 'vitest';
import { fullRequest, timeTool, toolRound, weatherTool } from '../testing/fixtures/keel-requests';
import { openAIRequestIssues } from '../testing/validate-openai-request';
import { lowerOpenAISchema } from './lower-schema';
import { mapOpenAIRequest } from './map-request';

const map = (request: Omit<ModelRequest, 'model'>, maxTokensField: 'max_tokens' | 'max_completion_tokens' = 'max_tokens') => {
  const body = mapOpenAIRequest({ model: 'gpt-4o-mini', ...request }, { model: 'gpt-4o-mini', maxTokensField });
  expect(openAIRequestIssues(body)).toEqual([]);
  return body;
};

describe('mapOpenAIRequest', () => {
  it('puts the token limit in max_tokens by default, or in max_completion_tokens when asked', () => {
    const messages = [{ role: 'user' as const, content: 'Hi' }];
    expect(map({ messages, maxTokens: 256 })).toMatchObject({ max_tokens: 256 });
    const reasoning = map({ messages, maxTokens: 256 }, 'max_completion_tokens');
    expect(reasoning).toMatchObject({ max_completion_tokens: 256 });
    expect(reasoning).not.toHaveProperty('max_tokens');
  });

  it('sends the system prompt first and nothing the request did not set', () => {
    expect(map({ system: 'Be brief.', messages: [{ role: 'user', content: 'Hi' }] })).toEqual({
      model: 'gpt-4o-mini',
      messages: [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'Hi' }],
    });
  });

  it('sends tool calls with JSON-string arguments and one tool message per result', () => {
    const body = map({ messages: toolRound, tools: [weatherTool, timeTool] });
    expect(body.messages.slice(1)).toEqual([
      {
        role: 'assistant',
        content: 'Let me check.',
        tool_calls: [
          { id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
          { id: 'call_2', type: 'function', function: { name: 'get_time', arguments: '{"city":"Paris"}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'call_1', content: '{"tempC":18}' },
      { role: 'tool', tool_call_id: 'call_2', content: 'Clock service unavailable' },
    ]);
  });

  it('echoes raw (unparseable) arguments as they were received', () => {
    const body = map({
      messages: [
        { role: 'user', content: 'Hi' },
        { role: 'assistant', content: [{ type: 'tool-call', id: 'c1', name: 'get_weather', arguments: '{"city": "Os' }] },
        { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'c1', toolName: 'get_weather', output: 'invalid arguments', isError: true }] },
      ],
    });
    expect(body.messages[1]).toEqual({ role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'get_weather', arguments: '{"city": "Os' } }] });
  });

  it.each([
    [{ type: 'auto' }, 'auto'],
    [{ type: 'required' }, 'required'],
    [{ type: 'none' }, 'none'],
    [{ type: 'tool', name: 'get_weather' }, { type: 'function', function: { name: 'get_weather' } }],
  ] as const)('maps tool choice %j to %j', (toolChoice, expected) => {
    expect(map({ messages: [{ role: 'user', content: 'Hi' }], tools: [weatherTool], toolChoice }).tool_choice).toEqual(expected);
  });

  it('sends a strict json_schema response format only when core asks for strict output with a schema', () => {
    const schema = { type: 'object', properties: { tempC: { type: 'number' } }, required: ['tempC'], additionalProperties: false };
    const request = { messages: [{ role: 'user' as const, content: 'Hi' }] };
    expect(map({ ...request, responseFormat: { type: 'json', name: 'weather report', schema } })).not.toHaveProperty('response_format');
    expect(map({ ...request, responseFormat: { type: 'json', strict: true } })).not.toHaveProperty('response_format');
    expect(map({ ...request, responseFormat: { type: 'json', name: 'weather report', schema, strict: true } }).response_format).toEqual({
      type: 'json_schema',
      json_schema: { name: 'weather_report', schema, strict: true },
    });
  });

  it('marks strict tools strict and leaves the others as they are, beside a response format', () => {
    const body = map({
      messages: [{ role: 'user', content: 'Hi' }],
      tools: [{ ...weatherTool, inputSchema: lowerOpenAISchema(weatherTool.inputSchema, 'tool')?.schema ?? {}, strict: true }, weatherTool],
      responseFormat: { type: 'json', schema: { type: 'object', properties: {}, required: [], additionalProperties: false }, strict: true },
    });
    expect(body.tools?.map((tool) => (tool.type === 'function' ? tool.function.strict : 'custom'))).toEqual([true, undefined]);
    expect(body.response_format).toMatchObject({ type: 'json_schema', json_schema: { strict: true } });
  });

  it('sends max_tokens, temperature and stop', () => {
    expect(map(fullRequest)).toMatchObject({ max_tokens: 1024, temperature: 0, stop: ['</answer>'] });
  });
});
