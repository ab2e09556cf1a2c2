import type { ModelRequest } from '@keel/provider';
import { describe, expect, it } from 'vitest';
import { fullRequest, timeTool, toolRound, weatherTool } from '../testing/fixtures/keel-requests';
import { anthropicRequestIssues } from '../testing/validate-anthropic-request';
import { lowerAnthropicSchema } from './lower-schema';
import { mapAnthropicRequest } from './map-request';

const settings = { model: 'claude-sonnet-4-6', maxTokens: 4096, cache: false };
const map = (request: Omit<ModelRequest, 'model'>, cache = false) => {
  const body = mapAnthropicRequest({ model: 'claude-sonnet-4-6', ...request }, { ...settings, cache });
  expect(anthropicRequestIssues(body)).toEqual([]);
  return body;
};

describe('mapAnthropicRequest', () => {
  it('sends the default max_tokens the API requires, and the request model', () => {
    expect(map({ messages: [{ role: 'user', content: 'Hi' }] })).toEqual({
      model: 'claude-sonnet-4-6',
      max_tokens: 4096,
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }],
    });
  });

  it('answers tool calls with one user turn of tool_result blocks, is_error kept', () => {
    const body = map({ messages: toolRound, tools: [weatherTool, timeTool] });
    expect(body.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'user']);
    expect(body.messages[2]?.content).toEqual([
      { type: 'tool_result', tool_use_id: 'call_1', content: '{"tempC":18}' },
      { type: 'tool_result', tool_use_id: 'call_2', content: 'Clock service unavailable', is_error: true },
    ]);
  });

  it('merges consecutive same-role turns and puts tool results first in a merged user turn', () => {
    const body = map({
      messages: [
        ...toolRound,
        { role: 'user', content: 'Also, be brief.' },
        { role: 'user', content: 'Thanks!' },
      ],
      tools: [weatherTool, timeTool],
    });
    expect(body.messages).toHaveLength(3);
    expect(body.messages[2]?.content).toMatchObject([
      { type: 'tool_result' },
      { type: 'tool_result' },
      { type: 'text', text: 'Also, be brief.' },
      { type: 'text', text: 'Thanks!' },
    ]);
  });

  it('drops empty text and turns left with nothing, so no content is empty', () => {
    const body = map({
      messages: [
        { role: 'user', content: 'Hi' },
        { role: 'assistant', content: [{ type: 'text', text: '' }] },
        { role: 'user', content: '   ' },
        { role: 'assistant', content: [{ type: 'text', text: '' }, { type: 'tool-call', id: 't1', name: 'get_weather', arguments: { city: 'Oslo' } }] },
        { role: 'tool', content: [{ type: 'tool-result', toolCallId: 't1', toolName: 'get_weather', output: '', isError: false }] },
      ],
      tools: [weatherTool],
    });
    expect(body.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Hi' }] },
      { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'get_weather', input: { city: 'Oslo' } }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1' }] },
    ]);
  });
});

describe('mapAnthropicRequest', () => {
  it('sends raw (unparseable) tool arguments as an object input', () => {
    const body = map({
      messages: [
        { role: 'user', content: 'Hi' },
        { role: 'assistant', content: [{ type: 'tool-call', id: 't1', name: 'get_weather', arguments: '{"city": "Os' }] },
        { role: 'tool', content: [{ type: 'tool-result', toolCallId: 't1', toolName: 'get_weather', output: 'bad arguments', isError: true }] },
      ],
      tools: [weatherTool],
    });
    expect(body.messages[1]?.content).toEqual([{ type: 'tool_use', id: 't1', name: 'get_weather', input: {} }]);
  });

  it.each([
    [{ type: 'auto' }, { type: 'auto' }],
    [{ type: 'required' }, { type: 'any' }],
    [{ type: 'none' }, { type: 'none' }],
    [{ type: 'tool', name: 'get_weather' }, { type: 'tool', name: 'get_weather' }],
  ] as const)('maps tool choice %j to %j', (toolChoice, expected) => {
    expect(map({ messages: [{ role: 'user', content: 'Hi' }], tools: [weatherTool], toolChoice }).tool_choice).toEqual(expected);
  });

  it('sends no tool_choice without tools', () => {
    expect(map({ messages: [{ role: 'user', content: 'Hi' }], toolChoice: { type: 'required' } })).not.toHaveProperty('tool_choice');
  });

  it('joins system messages into the system prompt', () => {
    const body = map({ system: 'Be brief.', messages: [{ role: 'system', content: 'Answer in French.' }, { role: 'user', content: 'Hi' }] });
    expect(body.system).toBe('Be brief.\n\nAnswer in French.');
  });

  it('with cache, marks the system prompt, the last tool and the last non-ephemeral message only', () => {
    const body = map(fullRequest, true);
    expect(body.system).toEqual([{ type: 'text', text: 'You are a concise assistant.', cache_control: { type: 'ephemeral' } }]);
    expect(body.tools?.map((tool) => 'cache_control' in tool)).toEqual([false, true]);
    const marked = body.messages.flatMap((message, turn) =>
      (Array.isArray(message.content) ? message.content : []).flatMap((block, index) => ('cache_control' in block ? [[turn, index, block.type]] : [])),
    );
    // The tool message is the last kept one; the ephemeral rejected answer and feedback follow it.
    expect(marked).toEqual([[2, 1, 'tool_result']]);
    expect(body.messages).toHaveLength(5);
  });

  it('keeps the cached prefix byte-identical when ephemeral feedback is appended', () => {
    const kept = mapAnthropicRequest({ ...fullRequest, messages: toolRound }, { ...settings, cache: true });
    const retry = mapAnthropicRequest(fullRequest, { ...settings, cache: true });
    expect(JSON.stringify(retry.messages.slice(0, kept.messages.length))).toBe(JSON.stringify(kept.messages));
  });

  it('puts no cache_control anywhere without cache', () => {
    expect(JSON.stringify(map(fullRequest))).not.toContain('cache_control');
  });

  it('sends output_config.format only for a strict response format, beside strict tools', () => {
    const schema = lowerAnthropicSchema(weatherTool.inputSchema, 'output')?.schema ?? {};
    const messages = [{ role: 'user' as const, content: 'Weather?' }];
    expect(map({ messages, responseFormat: { type: 'json', schema } })).not.toHaveProperty('output_config');
    expect(map({ messages, responseFormat: { type: 'json', strict: true } })).not.toHaveProperty('output_config');
    const body = map({ messages, responseFormat: { type: 'json', schema, strict: true }, tools: [{ ...weatherTool, inputSchema: schema, strict: true }, timeTool] });
    expect(body.output_config).toEqual({ format: { type: 'json_schema', schema } });
    expect(body.tools?.map((tool) => ('strict' in tool ? tool.strict : undefined))).toEqual([true, undefined]);
  });
});
