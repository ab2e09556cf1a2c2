import { Agent, type AgentEvents } from '@keel/core';
import { scriptedModel } from '@keel/core/test';
import { describe, expect, it } from 'vitest';
import { mcpTools } from './mcp-tools';
import { eventually, heardDuringRun } from './testing/helpers';
import { startHostileServer } from './testing/hostile-server';

const objectSchema = { type: 'object' as const, properties: { q: { type: 'string' } }, required: ['q'] };

describe("the MCP server's events on the agent's bus", () => {
  it('reach the runs holding its tools while they last; a run that starts after the connection ended is told at its start', async () => {
    const hostile = await startHostileServer([{ name: 'search', inputSchema: objectSchema }]);
    const mcp = await mcpTools(hostile.client);
    const closed: AgentEvents['mcp.server-closed'][] = [];
    const agent = Agent.create({ provider: scriptedModel(['first', 'second', 'third']), model: 'scripted' }).tools(mcp.tools).build();
    agent.on('mcp.server-closed', (event) => void closed.push(event));
    const bystander: string[] = [];
    const other = Agent.create({ provider: scriptedModel('no MCP tools'), model: 'scripted' }).build();
    other.on('mcp.server-closed', (event) => void bystander.push(event.server));

    await agent.run('one');
    await mcp.close();
    // No run was in flight: nothing heard it, and nothing holds the agent.
    expect(closed).toEqual([]);

    const second = await agent.run('two');
    const third = await agent.run('three');
    await other.run('four');
    expect(closed.map((event) => [event.runId, event.step, event.server, event.failure])).toEqual([
      [second.runId, 0, 'hostile', 'closed-by-client'],
      [third.runId, 0, 'hostile', 'closed-by-client'],
    ]);
    expect(Object.isFrozen(closed[0])).toBe(true);
    expect(bystander).toEqual([]);
    await hostile.client.close();
  });

  it('a listener of its events that throws is reported as listener.error and changes nothing', async () => {
    const hostile = await startHostileServer([{ name: 'a', inputSchema: objectSchema }]);
    const mcp = await mcpTools(hostile.client);
    const throwing = (agent: Agent) => {
      agent.on('mcp.tools-changed', () => {
        throw new Error('listener bug');
      });
    };
    const heard = await heardDuringRun(
      mcp.tools,
      ['listener.error', 'mcp.tools-changed'],
      async (events) => {
        await hostile.setTools([{ name: 'b', inputSchema: objectSchema }]);
        await eventually(() => events.length === 2);
      },
      throwing,
    );
    expect(heard.map((event) => event.name)).toEqual(['listener.error', 'mcp.tools-changed']);
    expect(heard[0]?.payload).toMatchObject({ event: 'mcp.tools-changed', message: 'listener bug' });
    expect(heard[1]?.payload).toMatchObject({ server: 'hostile', tools: ['b'], added: ['b'], removed: ['a'] });
    expect(mcp.tools.map((tool) => tool.name)).toEqual(['b']);
  });
});
