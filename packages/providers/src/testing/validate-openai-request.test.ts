import { describe, expect, it } from 'vitest';
import { openAIRequestIssues } from './validate-openai-request';

const call = (id: string) => ({ id, type: 'function', function: { name: 'get_weather', arguments: '{}' } });

describe('openAIRequestIssues', () => {
  it('accepts tool calls each answered by a tool message', () => {
    expect(openAIRequestIssues({
      model: 'gpt-4o-mini',
      messages: [
        { role: 'user', content: 'Weather?' },
        { role: 'assistant', content: null, tool_calls: [call('a'), call('b')] },
        { role: 'tool', tool_call_id: 'a', content: '18C' },
        { role: 'tool', tool_call_id: 'b', content: '25C' },
        { role: 'user', content: 'Thanks' },
      ],
    })).toEqual([]);
  });

  it('rejects an unanswered tool call and a tool message without a call', () => {
    const issues = openAIRequestIssues({
      model: 'gpt-4o-mini',
      messages: [
        { role: 'user', content: 'Weather?' },
        { role: 'assistant', content: null, tool_calls: [call('a'), call('b')] },
        { role: 'tool', tool_call_id: 'a', content: '18C' },
        { role: 'user', content: 'Hm?' },
        { role: 'tool', tool_call_id: 'zz', content: 'x' },
      ],
    });
    expect(issues).toEqual([
      'tool call b is not answered by a tool message before messages[3]',
      'messages[4] answers zz, which no pending assistant tool call has',
    ]);
  });

  it('rejects non-string arguments and an empty assistant message', () => {
    const issues = openAIRequestIssues({
      model: 'gpt-4o-mini',
      messages: [
        { role: 'user', content: 'x' },
        { role: 'assistant', content: null, tool_calls: [{ id: 'a', type: 'function', function: { name: 'f', arguments: {} } }] },
        { role: 'tool', tool_call_id: 'a', content: '' },
        { role: 'assistant', content: null },
      ],
    });
    expect(issues).toEqual(['messages[1] has tool call arguments that are not a JSON string', 'messages[3] has neither content nor tool calls']);
  });
});
