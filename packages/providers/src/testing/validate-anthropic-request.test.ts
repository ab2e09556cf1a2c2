import { describe, expect, it } from 'vitest';
import { anthropicRequestIssues } from './validate-anthropic-request';

const tools = [{ name: 'get_weather', input_schema: { type: 'object' } }];
const body = (messages: unknown[], extra: Record<string, unknown> = {}) => ({ model: 'claude-sonnet-4-6', max_tokens: 100, messages, tools, ...extra });
const toolUse = { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'get_weather', input: {} }] };

describe('anthropicRequestIssues', () => {
  it('accepts a valid tool round', () => {
    expect(anthropicRequestIssues(body([
      { role: 'user', content: 'Weather?' },
      toolUse,
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: '18C' }, { type: 'text', text: 'Thanks' }] },
    ]))).toEqual([]);
  });

  it('rejects turns that do not start with user or do not alternate', () => {
    expect(anthropicRequestIssues(body([{ role: 'assistant', content: 'Hi' }]))).toContain('messages[0] must be a user turn');
    expect(anthropicRequestIssues(body([{ role: 'user', content: 'a' }, { role: 'user', content: 'b' }])).join()).toMatch(/roles must alternate/);
  });

  it('rejects empty content and empty text blocks', () => {
    const issues = anthropicRequestIssues(body([{ role: 'user', content: [] }, { role: 'assistant', content: [{ type: 'text', text: ' ' }] }]));
    expect(issues).toContain('messages[0] has empty content');
    expect(issues).toContain('messages[1].content[0] is an empty text block');
  });

  it('rejects an unanswered tool_use, a stray tool_result and text before tool results', () => {
    expect(anthropicRequestIssues(body([{ role: 'user', content: 'x' }, toolUse, { role: 'user', content: 'no result' }])).join()).toMatch(/tool_use t1 is not answered/);
    expect(anthropicRequestIssues(body([{ role: 'user', content: [{ type: 'tool_result', tool_use_id: 'zz' }] }])).join()).toMatch(/did not call/);
    const textFirst = [{ role: 'user', content: 'x' }, toolUse, { role: 'user', content: [{ type: 'text', text: 'hi' }, { type: 'tool_result', tool_use_id: 't1' }] }];
    expect(anthropicRequestIssues(body(textFirst))).toContain('messages[2] has content before its tool_result blocks');
  });

  it('rejects a missing max_tokens, tool use without tools, an unknown forced tool and too many breakpoints', () => {
    const cached = { type: 'text', text: 'x', cache_control: { type: 'ephemeral' } };
    const issues = anthropicRequestIssues({
      model: 'm',
      messages: [{ role: 'user', content: [cached, cached, cached, cached, cached] }, toolUse, { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1' }] }],
      tool_choice: { type: 'tool', name: 'nope' },
    });
    expect(issues).toEqual(expect.arrayContaining([
      'max_tokens must be a positive integer',
      'the messages contain tool_use blocks but no tools are defined',
      'tool_choice is set without tools',
      'tool_choice names an unknown tool nope',
      'more than 4 cache_control breakpoints',
    ]));
  });
});
