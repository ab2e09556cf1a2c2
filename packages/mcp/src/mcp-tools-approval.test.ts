import { Agent } from '@keel/core';
import { scriptedModel } from '@keel/core/test';
import { describe, expect, it } from 'vitest';
import { type McpTools, mcpTools } from './mcp-tools';
import { stdioConnections } from './testing/connections';
import { context, serverLog, stdioServer, toolNamed } from './testing/helpers';

const connectStdio = stdioConnections();

const STATE_KEY = 'a secret of at least 32 bytes, for these tests';

const addCalls = async (mcp: McpTools) => (await serverLog(mcp.tools)).filter((line) => line.startsWith('call add'));

describe('MCP tools that need approval', () => {
  it('suspends the run on a tool named in the needsApproval map; nothing reaches the server until approved, then it runs once', async () => {
    const mcp = await connectStdio({ needsApproval: { add: true, env: false } });
    const model = scriptedModel([{ toolCalls: [{ id: 'call-1', name: 'add', arguments: { a: 2, b: 3 } }] }, 'The sum is 5.']);
    const agent = Agent.create({ provider: model, model: 'scripted', stateKey: STATE_KEY }).tools(mcp.tools).build();
    const result = await agent.run('add 2 and 3');
    if (result.status !== 'suspended' || result.state === undefined) throw new Error(`expected a suspended run, got ${result.status}`);
    expect(result.pendingApprovals).toMatchObject([{ toolCallId: 'call-1', toolName: 'add', arguments: { a: 2, b: 3 } }]);
    expect(await addCalls(mcp)).toEqual([]);
    const resumed = await agent.resume(JSON.parse(JSON.stringify(result.state)), { approve: ['call-1'] });
    expect(resumed.status).toBe('complete');
    expect(resumed.toolCalls[0]).toMatchObject({ toolName: 'add', output: '5', isError: false });
    expect(await addCalls(mcp)).toEqual(['call add {"a":2,"b":3}']);
  });

  it('asks a function of the server tool name and the validated arguments, per call; true makes every call wait', async () => {
    const asked: [string, unknown][] = [];
    const mcp = await connectStdio({
      prefix: 'calc',
      needsApproval: (name, input) => {
        asked.push([name, input]);
        return (input as { a: number }).a > 100;
      },
    });
    const model = scriptedModel([
      { toolCalls: [{ id: 'small', name: 'calc_add', arguments: { a: '2', b: 3 } }] },
      { toolCalls: [{ id: 'large', name: 'calc_add', arguments: { a: 500, b: 1 } }] },
      'done',
    ]);
    const result = await Agent.create({ provider: model, model: 'scripted', stateKey: STATE_KEY }).tools(mcp.tools).build().run('add');
    expect(result.status).toBe('suspended');
    // The server's name, and the coerced value that would run.
    expect(asked).toEqual([['add', { a: 2, b: 3 }], ['add', { a: 500, b: 1 }]]);
    const log = JSON.parse(String(await toolNamed(mcp.tools, 'calc_log').execute({}, context()))) as string[];
    expect(log.filter((line) => line.startsWith('call add'))).toEqual(['call add {"a":2,"b":3}']);

    const all = await connectStdio({ needsApproval: true });
    expect(toolNamed(all.tools, 'pid').needsApproval).toBeTypeOf('function');
    const none = await connectStdio();
    expect(toolNamed(none.tools, 'pid').needsApproval).toBeUndefined();
  });

  it('refuses a map naming a tool the server does not list, and a malformed option', async () => {
    await expect(mcpTools(stdioServer, { needsApproval: { ad: true } })).rejects.toMatchObject({ name: 'AgentConfigurationError', message: expect.stringContaining('"ad"') });
    await expect(mcpTools(stdioServer, { needsApproval: { add: 'yes' } as never })).rejects.toMatchObject({ name: 'AgentConfigurationError', message: expect.stringContaining('must be true or false') });
    await expect(mcpTools(stdioServer, { needsApproval: 'always' as never })).rejects.toMatchObject({ name: 'AgentConfigurationError' });
  });
});
