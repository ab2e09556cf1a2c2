import { Agent, type AgentEvents } from '@keel/core';
import { scriptedModel } from '@keel/core/test';
import { describe, expect, it } from 'vitest';
import { mcpTools } from './mcp-tools';
import { stdioConnections } from './testing/connections';
import { context, eventually, heardDuringRun, serverLog, stdioServer, toolNamed } from './testing/helpers';

const connectStdio = stdioConnections();

describe('mcpTools over stdio (a child process)', () => {
  it('lists the server tools as Keel tools whose input schema is the server JSON Schema', async () => {
    const mcp = await connectStdio();
    expect(mcp.server).toBe('keel-test');
    expect(mcp.transport).toBe('stdio');
    expect(mcp.tools.map((tool) => tool.name).sort()).toEqual(['add', 'code', 'crash', 'disable_extra', 'enable_extra', 'env', 'fail', 'log', 'media', 'pid', 'slow', 'weather']);
    const add = toolNamed(mcp.tools, 'add');
    expect(add.description).toBe('Adds two whole numbers.');
    expect(add.specification.inputSchema).toMatchObject({ type: 'object', properties: { a: { type: 'integer' }, b: { type: 'integer' } }, required: ['a', 'b'] });
    expect(add.specification.inputSchema).not.toHaveProperty('$schema');
  });

  it('re-asks bad arguments with the tool forced, and runs the corrected call once on the server', async () => {
    const mcp = await connectStdio();
    const model = scriptedModel([
      { toolCalls: [{ id: 'call-1', name: 'add', arguments: { a: 'two', b: 3 } }] },
      { toolCalls: [{ id: 'call-1', name: 'add', arguments: { a: 2, b: 3 } }] },
      'The sum is 5.',
    ]);
    const agent = Agent.create({ provider: model, model: 'scripted' }).tools(mcp.tools).build();
    const retries: string[] = [];
    agent.on('tool.re-ask', (event) => {
      retries.push(event.feedback);
    });
    const result = await agent.run('What is 2 + 3?');

    expect(result.text).toBe('The sum is 5.');
    expect(retries).toHaveLength(1);
    expect(retries[0]).toContain('a');
    // The re-ask forced the tool.
    expect(model.requests[1]?.toolChoice).toEqual({ type: 'tool', name: 'add' });
    // One record of the logical call, with the arguments that ran.
    expect(result.toolCalls).toHaveLength(1);
    expect(result.toolCalls[0]).toMatchObject({ toolName: 'add', arguments: { a: 2, b: 3 }, output: '5', isError: false });
    // The server ran the call once, with the corrected arguments: the bad ones never reached it.
    expect((await serverLog(mcp.tools)).filter((line) => line.startsWith('call add'))).toEqual(['call add {"a":2,"b":3}']);
  });

  it('coerces a lossless mistake ("2" for 2) without a re-ask and sends the coerced value', async () => {
    const mcp = await connectStdio();
    const model = scriptedModel([{ toolCalls: [{ name: 'add', arguments: { a: '2', b: 3 } }] }, 'done']);
    const result = await Agent.create({ provider: model, model: 'scripted' }).tools(mcp.tools).build().run('add');
    expect(model.calls).toBe(2);
    expect(result.toolCalls[0]).toMatchObject({ arguments: { a: 2, b: 3 }, output: '5' });
    expect(await serverLog(mcp.tools)).toContain('call add {"a":2,"b":3}');
  });

  it('runs guards on every retry input, so a re-asked call a guard refuses never reaches the server', async () => {
    const mcp = await connectStdio({ guards: [(_tool, args) => ((args as { a?: unknown }).a === 666 ? { code: 'forbidden-number', message: 'not that number' } : undefined)] });
    const model = scriptedModel([
      { toolCalls: [{ id: 'c', name: 'add', arguments: { a: 'x', b: 1 } }] },
      { toolCalls: [{ id: 'c', name: 'add', arguments: { a: 666, b: 1 } }] },
      'gave up',
    ]);
    const result = await Agent.create({ provider: model, model: 'scripted' }).tools(mcp.tools).build().run('add');
    expect(result.toolCalls[0]).toMatchObject({ isError: true, errorCode: 'forbidden-number' });
    expect((await serverLog(mcp.tools)).filter((line) => line.startsWith('call add'))).toEqual([]);
  });

  it('turns an isError result into an error result the model reads, with the server text', async () => {
    const mcp = await connectStdio();
    const model = scriptedModel([{ toolCalls: [{ name: 'fail', arguments: { reason: 'disk full' } }] }, 'sorry']);
    const ends: { isError: boolean; errorCode?: string }[] = [];
    const agent = Agent.create({ provider: model, model: 'scripted' }).tools(mcp.tools).build();
    agent.on('tool.end', (event) => {
      ends.push(event);
    });
    const result = await agent.run('do it');
    expect(result.toolCalls[0]).toMatchObject({ isError: true, errorCode: 'tool-error' });
    expect(result.toolCalls[0]?.output).toContain('could not do it: disk full');
    expect(ends[0]).toMatchObject({ isError: true, errorCode: 'tool-error' });
    await expect(toolNamed(mcp.tools, 'fail').execute({ reason: 'x' }, context())).rejects.toMatchObject({ name: 'McpError', problem: 'tool-call', retryable: false });
  });
});

describe('mcpTools over stdio (a child process)', () => {
  it('maps every kind of content to text once, describing what it cannot show (the content is the answer: structured content beside it is not repeated)', async () => {
    const mcp = await connectStdio();
    // The structured content is already in the text block: not repeated.
    expect(await toolNamed(mcp.tools, 'weather').execute({ city: 'Oslo' }, context())).toBe('{"city":"Oslo","celsius":21}');
    const media = String(await toolNamed(mcp.tools, 'media').execute({}, context()));
    expect(media.split('\n\n')).toEqual([
      'a chart follows',
      '[image: image/png, 70 bytes, not shown]',
      '[audio: audio/wav, 4 bytes, not shown]',
      '[resource file:///notes.txt, text/plain]\nthe notes',
      '[resource file:///data.bin, application/octet-stream, 4 bytes of binary data, not shown]',
      '[resource link report <file:///report.pdf>, application/pdf: the full report]',
    ]);
  });

  it('checks a server pattern a backtracking engine takes exponential time on (^(a+)+$) in bounded time, and shows the model the pattern', async () => {
    const mcp = await connectStdio();
    const code = toolNamed(mcp.tools, 'code');
    expect(code.specification.inputSchema).toMatchObject({ properties: { code: { type: 'string', pattern: '^(a+)+$' } } });
    // 40 characters and a mismatch at the end: on a backtracking engine this would block the event loop for hours.
    const hostile = `${'a'.repeat(40)}!`;
    const model = scriptedModel([
      { toolCalls: [{ id: 'call-1', name: 'code', arguments: { code: hostile } }] },
      { toolCalls: [{ id: 'call-1', name: 'code', arguments: { code: 'aaaa' } }] },
      'accepted',
    ]);
    const feedback: string[] = [];
    const agent = Agent.create({ provider: model, model: 'scripted' }).tools(mcp.tools).build();
    agent.on('tool.re-ask', (event) => void feedback.push(event.feedback));
    const result = await agent.run('check the code');
    expect(feedback).toHaveLength(1);
    expect(feedback[0]).toContain('^(a+)+$');
    expect(result.toolCalls[0]).toMatchObject({ arguments: { code: 'aaaa' }, output: 'code aaaa accepted', isError: false });
    expect((await serverLog(mcp.tools)).filter((line) => line.startsWith('call code'))).toEqual(['call code {"code":"aaaa"}']);
  });

  it('a crash mid-call is a typed error result and an mcp.server-closed event of the run, not a hang; later calls fail at once', async () => {
    const mcp = await connectStdio();
    const closed: AgentEvents['mcp.server-closed'][] = [];
    const model = scriptedModel([{ toolCalls: [{ name: 'crash', arguments: {} }] }, { toolCalls: [{ name: 'add', arguments: { a: 1, b: 2 } }] }, 'the server is gone']);
    const agent = Agent.create({ provider: model, model: 'scripted' }).tools(mcp.tools).build();
    agent.on('mcp.server-closed', (event) => void closed.push(event));
    const result = await agent.run('crash it');
    expect(result.text).toBe('the server is gone');
    expect(result.toolCalls.map((call) => [call.toolName, call.isError, call.errorCode])).toEqual([
      ['crash', true, 'tool-error'],
      ['add', true, 'tool-error'],
    ]);
    expect(result.toolCalls[0]?.output).toContain('closed the connection');
    expect(closed).toHaveLength(1);
    expect(closed[0]).toMatchObject({ runId: result.runId, step: 1, server: 'keel-test', failure: 'closed' });
    expect(closed[0]?.message).toContain('closed the connection');
    await expect(toolNamed(mcp.tools, 'add').execute({ a: 1, b: 1 }, context())).rejects.toMatchObject({ name: 'McpError', problem: 'connection', retryable: true });
  });

  it('an abort cancels the MCP request on the server (notifications/cancelled)', async () => {
    const mcp = await connectStdio();
    const controller = new AbortController();
    const model = scriptedModel([{ toolCalls: [{ name: 'slow', arguments: { ms: 30_000 } }] }, 'unreachable']);
    const agent = Agent.create({ provider: model, model: 'scripted' }).tools(mcp.tools).build();
    agent.on('tool.start', () => {
      setTimeout(() => controller.abort(new Error('user stop')), 100);
    });
    await expect(agent.run('wait', { signal: controller.signal })).rejects.toMatchObject({ name: 'AbortedError' });
    let log: string[] = [];
    await eventually(() => {
      void serverLog(mcp.tools).then((lines) => (log = lines), () => undefined);
      return log.includes('cancelled slow');
    });
    expect(log).toContain('call slow {"ms":30000}');
  });

  it('a per-call timeout ends the call with tool-timeout and cancels it on the server', async () => {
    const mcp = await connectStdio({ timeoutMs: 200 });
    const model = scriptedModel([{ toolCalls: [{ name: 'slow', arguments: { ms: 30_000 } }] }, 'too slow']);
    const result = await Agent.create({ provider: model, model: 'scripted' }).tools(mcp.tools).build().run('wait');
    expect(result.toolCalls[0]).toMatchObject({ isError: true, errorCode: 'tool-timeout' });
    let log: string[] = [];
    await eventually(() => {
      void serverLog(mcp.tools).then((lines) => (log = lines), () => undefined);
      return log.includes('cancelled slow');
    });
  });
});

describe('mcpTools over stdio (a child process)', () => {
  it('follows the list-changed notification: the next agent built sees the new tool, and a removal', async () => {
    const mcp = await connectStdio();
    const enabled = await heardDuringRun(mcp.tools, ['mcp.tools-changed'], async (heard) => {
      await toolNamed(mcp.tools, 'enable_extra').execute({}, context());
      await eventually(() => heard.length === 1);
    });
    expect(enabled[0]?.payload).toMatchObject({ server: 'keel-test', added: ['extra'], removed: [] });
    expect(enabled[0]?.payload.tools).toContain('extra');

    const second = scriptedModel([{ toolCalls: [{ name: 'extra', arguments: { word: 'hi' } }] }, 'ok']);
    const result = await Agent.create({ provider: second, model: 'scripted' }).tools(mcp.tools).build().run('use extra');
    expect(second.requests[0]?.tools?.map((tool) => tool.name)).toContain('extra');
    expect(result.toolCalls[0]).toMatchObject({ toolName: 'extra', output: 'extra: hi', isError: false });

    const disabled = await heardDuringRun(mcp.tools, ['mcp.tools-changed'], async (heard) => {
      await toolNamed(mcp.tools, 'disable_extra').execute({}, context());
      await eventually(() => heard.length === 1);
    });
    expect(disabled.map((event) => [event.payload.added, event.payload.removed])).toEqual([[[], ['extra']]]);
    expect(mcp.tools.map((tool) => tool.name)).not.toContain('extra');
  });

  it('takes a filter and a prefix', async () => {
    const mcp = await connectStdio({ prefix: 'calc', filter: ['add', 'log'] });
    expect(mcp.tools.map((tool) => tool.name).sort()).toEqual(['calc_add', 'calc_log']);
    const model = scriptedModel([{ toolCalls: [{ name: 'calc_add', arguments: { a: 1, b: 2 } }] }, 'three']);
    const result = await Agent.create({ provider: model, model: 'scripted' }).tools(mcp.tools).build().run('add');
    expect(result.toolCalls[0]).toMatchObject({ toolName: 'calc_add', output: '3' });
    const byFunction = await connectStdio({ filter: (tool) => tool.name.startsWith('w') });
    expect(byFunction.tools.map((tool) => tool.name)).toEqual(['weather']);
  });

  it('two servers with the same tool names live side by side under two prefixes', async () => {
    const one = await connectStdio({ prefix: 'one' });
    const two = await connectStdio({ prefix: 'two' });
    const model = scriptedModel([{ toolCalls: [{ name: 'one_add', arguments: { a: 1, b: 1 } }, { name: 'two_add', arguments: { a: 2, b: 2 } }] }, 'both']);
    const result = await Agent.create({ provider: model, model: 'scripted' }).tools([...one.tools, ...two.tools]).build().run('add twice');
    expect(result.toolCalls.map((call) => call.output)).toEqual(['2', '4']);
    // Without prefixes the agent refuses the duplicate names.
    const plain = await connectStdio();
    expect(() => Agent.create({ provider: model, model: 'scripted' }).tools([...plain.tools, ...plain.tools]).build()).toThrow(/used twice/);
  });

  it('the child process does not inherit the environment (API keys) unless it is passed in env', async () => {
    process.env.KEEL_MCP_TEST_SECRET = 'sk-do-not-leak';
    try {
      const plain = await connectStdio();
      expect(await toolNamed(plain.tools, 'env').execute({ name: 'KEEL_MCP_TEST_SECRET' }, context())).toBe('(unset)');
      const given = await connectStdio({});
      expect(await toolNamed(given.tools, 'env').execute({ name: 'PATH' }, context())).not.toBe('(unset)');
      const passed = await connectStdio({}, { ...stdioServer, env: { KEEL_MCP_TEST_VALUE: 'given' } });
      expect(await toolNamed(passed.tools, 'env').execute({ name: 'KEEL_MCP_TEST_VALUE' }, context())).toBe('given');
    } finally {
      delete process.env.KEEL_MCP_TEST_SECRET;
    }
  });

  it('close() ends the child process; calls after it fail with closed-by-client', async () => {
    const mcp = await mcpTools(stdioServer);
    const pid = Number(await toolNamed(mcp.tools, 'pid').execute({}, context()));
    expect(() => process.kill(pid, 0)).not.toThrow();
    const heard = await heardDuringRun(mcp.tools, ['mcp.server-closed'], async () => {
      await mcp.close();
      await mcp.close();
    });
    expect(() => process.kill(pid, 0)).toThrow(/ESRCH/);
    expect(heard.map((event) => event.payload.failure)).toEqual(['closed-by-client']);
    await expect(toolNamed(mcp.tools, 'add').execute({ a: 1, b: 1 }, context())).rejects.toMatchObject({ name: 'McpError', problem: 'connection', failure: 'closed-by-client' });
  });

  it('refuses a command that does not start, and one that is no MCP server, with a typed error', async () => {
    await expect(mcpTools({ command: '/nonexistent/keel-mcp-server' })).rejects.toMatchObject({ name: 'McpError', problem: 'connection', failure: 'connect-failed' });
    const started = Date.now();
    await expect(mcpTools({ command: process.execPath, args: ['-e', 'process.stdin.resume(); process.stdin.on("end", () => process.exit(0))'] }, { connectTimeoutMs: 300 })).rejects.toMatchObject({ name: 'McpError', problem: 'connection', failure: 'connect-failed' });
    expect(Date.now() - started).toBeLessThan(10_000);
    await expect(mcpTools({ command: process.execPath, args: ['-e', 'process.exit(1)'] })).rejects.toMatchObject({ problem: 'connection', failure: 'connect-failed' });
  });
});
