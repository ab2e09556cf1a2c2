import { Agent } from '@keel/core';
import { scriptedModel } from '@keel/core/test';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { McpError } from './errors/mcp-error';
import { type McpTools, mcpTools } from './mcp-tools';
import { startHttpServer, type TestHttpServer } from './testing/http-server';
import { startSseServer } from './testing/sse-server';
import { context, eventually, heardDuringRun, serverLog, toolNamed } from './testing/helpers';

let server: TestHttpServer;
const open: McpTools[] = [];
beforeEach(async () => {
  server = await startHttpServer();
});
afterEach(async () => {
  await Promise.all(open.splice(0).map((mcp) => mcp.close()));
  await server.close();
});
async function connectHttp(options: Parameters<typeof mcpTools>[1] = {}): Promise<McpTools> {
  const mcp = await mcpTools({ url: server.url, headers: { authorization: 'Bearer test-token' } }, options);
  open.push(mcp);
  return mcp;
}

describe('mcpTools over Streamable HTTP (127.0.0.1)', () => {
  it('lists the tools, sending the headers with every request', async () => {
    const mcp = await connectHttp();
    expect(mcp.transport).toBe('streamable-http');
    expect(mcp.tools.map((tool) => tool.name)).toContain('add');
    expect(server.headers.length).toBeGreaterThan(0);
    expect(server.headers.every((headers) => headers.authorization === 'Bearer test-token')).toBe(true);
  });

  it('re-asks bad arguments and runs the corrected call once on the server', async () => {
    const mcp = await connectHttp();
    const model = scriptedModel([
      { toolCalls: [{ id: 'c1', name: 'add', arguments: { a: 2.5, b: 1 } }] },
      { toolCalls: [{ id: 'c1', name: 'add', arguments: { a: 2, b: 1 } }] },
      'three',
    ]);
    const result = await Agent.create({ provider: model, model: 'scripted' }).tools(mcp.tools).build().run('add');
    expect(model.calls).toBe(3);
    expect(result.toolCalls).toHaveLength(1);
    expect(result.toolCalls[0]).toMatchObject({ arguments: { a: 2, b: 1 }, output: '3', isError: false });
    expect(server.log.filter((line) => line.startsWith('call add'))).toEqual(['call add {"a":2,"b":1}']);
  });

  it('an isError result is an error result', async () => {
    const mcp = await connectHttp();
    const model = scriptedModel([{ toolCalls: [{ name: 'fail', arguments: { reason: 'quota' } }] }, 'sorry']);
    const result = await Agent.create({ provider: model, model: 'scripted' }).tools(mcp.tools).build().run('go');
    expect(result.toolCalls[0]).toMatchObject({ isError: true, errorCode: 'tool-error' });
    expect(result.toolCalls[0]?.output).toContain('could not do it: quota');
  });

  it('a server that dies mid-call gives a typed error result and an mcp.server-closed event of the run, not a wait for the timeout', async () => {
    const mcp = await connectHttp();
    const closed: string[] = [];
    const model = scriptedModel([{ toolCalls: [{ name: 'crash', arguments: {} }] }, 'gone']);
    const agent = Agent.create({ provider: model, model: 'scripted' }).tools(mcp.tools).build();
    agent.on('mcp.server-closed', (event) => void closed.push(event.failure));
    const started = Date.now();
    const result = await agent.run('crash');
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(result.toolCalls[0]).toMatchObject({ isError: true, errorCode: 'tool-error' });
    expect(result.toolCalls[0]?.output).toMatch(/stopped answering|closed the connection/);
    expect(closed).toEqual(['closed']);
    await expect(toolNamed(mcp.tools, 'add').execute({ a: 1, b: 2 }, context())).rejects.toMatchObject({ problem: 'connection', retryable: true });
  });

  it('an abort cancels the request on the server', async () => {
    const mcp = await connectHttp();
    const controller = new AbortController();
    const model = scriptedModel([{ toolCalls: [{ name: 'slow', arguments: { ms: 30_000 } }] }, 'never']);
    const agent = Agent.create({ provider: model, model: 'scripted' }).tools(mcp.tools).build();
    agent.on('tool.start', () => {
      setTimeout(() => controller.abort(), 100);
    });
    await expect(agent.run('wait', { signal: controller.signal })).rejects.toMatchObject({ name: 'AbortedError' });
    await eventually(() => server.log.includes('cancelled slow'));
  });

  it('follows list changes', async () => {
    const mcp = await connectHttp();
    const changed = await heardDuringRun(mcp.tools, ['mcp.tools-changed'], async (heard) => {
      await toolNamed(mcp.tools, 'enable_extra').execute({}, context());
      await eventually(() => heard.length === 1);
    });
    expect(changed.map((event) => event.payload.added)).toEqual([['extra']]);
    expect(await toolNamed(mcp.tools, 'extra').execute({ word: 'yes' }, context())).toBe('extra: yes');
    expect(await serverLog(mcp.tools)).toContain('call extra {"word":"yes"}');
  });

  it('close() ends the HTTP session on the server', async () => {
    const mcp = await mcpTools({ url: server.url });
    expect(server.sessions()).toBe(1);
    await mcp.close();
    await eventually(() => server.sessions() === 0);
    expect(server.log.some((line) => line.startsWith('session closed'))).toBe(true);
  });

  it('refuses a URL that does not answer, with a typed error that does not show the query string', async () => {
    await server.close();
    const error = await mcpTools({ url: `${server.url}?token=secret-123` }).catch((caught: unknown) => caught);
    expect(McpError.isInstance(error)).toBe(true);
    expect((error as McpError).problem).toBe('connection');
    expect((error as McpError).failure).toBe('connect-failed');
    expect((error as Error).message).not.toContain('secret-123');
    server = await startHttpServer();
  });
});

describe('mcpTools over HTTP+SSE (the older transport)', () => {
  it('falls back to HTTP+SSE when the server refuses Streamable HTTP, and calls a tool', async () => {
    const sse = await startSseServer();
    try {
      const mcp = await mcpTools({ url: sse.url });
      expect(mcp.transport).toBe('sse');
      const model = scriptedModel([{ toolCalls: [{ name: 'add', arguments: { a: 'one', b: 1 } }] }, { toolCalls: [{ name: 'add', arguments: { a: 1, b: 1 } }] }, 'two']);
      const result = await Agent.create({ provider: model, model: 'scripted' }).tools(mcp.tools).build().run('add');
      expect(result.toolCalls[0]).toMatchObject({ output: '2', isError: false });
      expect(sse.log.filter((line) => line.startsWith('call add'))).toEqual(['call add {"a":1,"b":1}']);
      await mcp.close();
      await expect(mcpTools({ url: sse.url, sseFallback: false })).rejects.toMatchObject({ name: 'McpError', problem: 'connection', failure: 'connect-failed' });
    } finally {
      await sse.close();
    }
  });
});
