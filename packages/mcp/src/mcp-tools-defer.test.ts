import { Agent, AgentConfigurationError } from '@keel/core';
import { scriptedModel } from '@keel/core/test';
import { describe, expect, it } from 'vitest';
import { mcpTools } from './mcp-tools';
import { stdioConnections } from './testing/connections';
import { stdioServer } from './testing/helpers';

const connectStdio = stdioConnections();

describe('mcpTools with defer', () => {
  it('defers every tool of the server: none is sent until tool_search finds it, then it is called and runs on the server', async () => {
    const mcp = await connectStdio({ defer: true });
    expect(mcp.tools.every((tool) => tool.defer === true)).toBe(true);
    const model = scriptedModel((request) => {
      const sent = (request.tools ?? []).map((tool) => tool.name);
      if (request.messages.some((message) => message.role === 'tool' && message.content.some((part) => part.toolName === 'add'))) return 'The sum is 5.';
      if (sent.includes('add')) return { toolCalls: [{ name: 'add', arguments: { a: 2, b: 3 } }] };
      return { toolCalls: [{ name: 'tool_search', arguments: { query: 'add two numbers' } }] };
    });
    const result = await Agent.create({ provider: model, model: 'scripted' }).tools(mcp.tools).build().run('What is 2 + 3?');

    expect(result.text).toBe('The sum is 5.');
    expect(model.requests[0]?.tools?.map((tool) => tool.name)).toEqual(['tool_search']);
    expect(model.requests[1]?.tools?.map((tool) => tool.name)).toContain('add');
    expect(result.toolCalls.map((call) => [call.toolName, call.output])).toEqual([
      ['tool_search', expect.stringContaining('- add: Adds two whole numbers. (arguments: a, b)')],
      ['add', '5'],
    ]);
  });

  it('refuses a defer that is not true or false', async () => {
    await expect(mcpTools(stdioServer, { defer: 'yes' as unknown as boolean })).rejects.toSatisfy((error: unknown) => AgentConfigurationError.isInstance(error) && error.message.includes('mcpTools.defer'));
  });
});
