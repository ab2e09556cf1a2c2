import { Agent } from '@keel/core';
import { scriptedModel } from '@keel/core/test';
import { describe, expect, it } from 'vitest';
import { McpError } from './errors/mcp-error';
import { mcpTools } from './mcp-tools';
import { context, eventually, heardDuringRun, toolNamed } from './testing/helpers';
import { startHostileServer } from './testing/hostile-server';

const objectSchema = { type: 'object' as const, properties: { q: { type: 'string' } }, required: ['q'] };

describe('mcpTools with a server whose tool list is hostile', () => {
  it('takes an SDK Client the caller connected, and leaves it open on close()', async () => {
    const hostile = await startHostileServer([{ name: 'search', inputSchema: objectSchema }]);
    const mcp = await mcpTools(hostile.client);
    expect(mcp.transport).toBe('client');
    expect(mcp.server).toBe('hostile');
    expect(await toolNamed(mcp.tools, 'search').execute({ q: 'x' }, context())).toBe('ok');
    await mcp.close();
    await expect(hostile.client.ping()).resolves.toBeDefined();
    await hostile.client.close();
  });

  it('refuses a Client that is not connected', async () => {
    const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
    await expect(mcpTools(new Client({ name: 'x', version: '1' }))).rejects.toMatchObject({ name: 'McpError', problem: 'connection', failure: 'connect-failed' });
  });

  it('refuses a schema Keel cannot compile with a typed error naming the tool, or skips it with an event', async () => {
    const tools = [
      { name: 'good', inputSchema: objectSchema },
      { name: 'weird', inputSchema: { type: 'object' as const, properties: { q: { type: 'string', 'x-widget': 'textarea' } } } },
    ];
    const hostile = await startHostileServer(tools);
    const error = await mcpTools(hostile.client).catch((caught: unknown) => caught);
    expect(McpError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ problem: 'tool-definition', tool: 'weird', definitionProblem: 'input-schema', server: 'hostile' });
    expect((error as Error).message).toContain('x-widget');

    const again = await startHostileServer(tools);
    const mcp = await mcpTools(again.client, { invalidTools: 'skip' });
    expect(mcp.tools.map((tool) => tool.name)).toEqual(['good']);
    // A run holding the tools hears what a new listing leaves out, on its agent's bus.
    const refused = await heardDuringRun(mcp.tools, ['mcp.tool-refused'], async (heard) => {
      await again.setTools([...tools, { name: 'worse', inputSchema: { type: 'object' as const, properties: { n: { type: 'wat' } } } }]);
      await eventually(() => heard.length >= 2);
    });
    expect(refused.slice(0, 2).map((event) => [event.payload.toolName, event.payload.problem, event.payload.server])).toEqual([
      ['weird', 'input-schema', 'hostile'],
      ['worse', 'input-schema', 'hostile'],
    ]);
    expect(refused[0]?.payload.message).toContain('x-widget');
  });

  it('refuses what no JSON Schema compiler should follow: remote $refs, non-object roots, absurd nesting', async () => {
    const nested: Record<string, unknown> = { type: 'object' };
    let node = nested;
    for (let depth = 0; depth < 20_000; depth++) {
      const child: Record<string, unknown> = { type: 'object' };
      node.properties = { x: child };
      node = child;
    }
    const cases: [string, unknown][] = [
      ['remote-ref', { type: 'object', properties: { q: { $ref: 'http://127.0.0.1:1/schema.json' } } }],
      ['deep', nested],
      ['bad-pattern', { type: 'object', properties: { q: { type: 'string', pattern: '(' } } }],
      // A keyword of 2020-12 (MCP's default dialect) in a schema that declares draft-07.
      ['draft-07-with-2020-keyword', { $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', properties: { q: { type: 'array', prefixItems: [{ type: 'string' }] } } }],
      ['unsupported-dialect', { $schema: 'https://json-schema.org/draft/2019-09/schema', type: 'object', properties: { q: { type: 'string' } } }],
    ];
    for (const [name, inputSchema] of cases) {
      const hostile = await startHostileServer([{ name, inputSchema: inputSchema as never }]);
      const error = await mcpTools(hostile.client).catch((caught: unknown) => caught);
      expect(error, name).toMatchObject({ name: 'McpError', problem: 'tool-definition', tool: name, definitionProblem: 'input-schema' });
    }
  });

  it('a listing the MCP SDK refuses (a root that is no object) is a typed error naming where', async () => {
    const hostile = await startHostileServer([{ name: 'ok', inputSchema: objectSchema }, { name: 'list', inputSchema: { type: 'array' } as never }]);
    const error = await mcpTools(hostile.client).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ name: 'McpError', problem: 'tool-call', tool: 'tools/list' });
    expect((error as Error).message).toContain('tools.1.inputSchema.type');
  });

  it('accepts the usual dialect markers', async () => {
    const hostile = await startHostileServer([
      { name: 'draft7', inputSchema: { $schema: 'http://json-schema.org/draft-07/schema#', ...objectSchema } },
      { name: 'draft2020', inputSchema: { $schema: 'https://json-schema.org/draft/2020-12/schema', ...objectSchema } },
    ]);
    const mcp = await mcpTools(hostile.client);
    expect(mcp.tools.map((tool) => tool.name)).toEqual(['draft7', 'draft2020']);
  });

});

describe('mcpTools with a server whose tool list is hostile', () => {
  it('makes every name valid for the vendors and refuses two names that collide', async () => {
    const hostile = await startHostileServer([
      { name: 'docs.search', inputSchema: objectSchema },
      { name: 'files/read file', inputSchema: objectSchema },
      { name: 'x'.repeat(120), inputSchema: objectSchema },
    ]);
    const mcp = await mcpTools(hostile.client, { prefix: 'srv' });
    for (const tool of mcp.tools) expect(tool.name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
    // The server receives its own name.
    const dotted = mcp.tools[0];
    await dotted?.execute({ q: 'a' }, context());
    expect(hostile.calls[0]?.name).toBe('docs.search');

    const colliding = await startHostileServer([
      { name: 'same', inputSchema: objectSchema },
      { name: 'same', inputSchema: objectSchema },
    ]);
    await expect(mcpTools(colliding.client)).rejects.toMatchObject({ name: 'McpError', problem: 'tool-definition', definitionProblem: 'name-collision', tool: 'same' });
  });
  it('reads every page of the tool list, and stops a server that pages forever', async () => {
    const many = Array.from({ length: 25 }, (_, index) => ({ name: `t${index}`, inputSchema: objectSchema }));
    const paged = await startHostileServer(many, undefined, { pageSize: 10 });
    expect((await mcpTools(paged.client)).tools).toHaveLength(25);
    const endless = await startHostileServer(many, undefined, { pageSize: 1, cursor: () => '0' });
    await expect(mcpTools(endless.client)).rejects.toMatchObject({ name: 'McpError', problem: 'tool-call' });
  });

  it('describes content it cannot show and keeps unknown block types visible', async () => {
    const hostile = await startHostileServer([{ name: 'odd', inputSchema: objectSchema }], () => ({
      content: [{ type: 'text', text: 'first' }, { type: 'image', data: 'A'.repeat(4_000_000), mimeType: 'image/png' }],
      structuredContent: { total: 2 },
    }));
    const mcp = await mcpTools(hostile.client);
    const model = scriptedModel([{ toolCalls: [{ name: 'odd', arguments: { q: 'x' } }] }, 'done']);
    const result = await Agent.create({ provider: model, model: 'scripted' }).tools(mcp.tools).build().run('go');
    // The 3 MB image is described, not sent.
    expect(result.toolCalls[0]?.output).toBe('first\n\n[image: image/png, 2.9 MB, not shown]');
  });

  it('sends a result once: structured content that repeats the text, or carries the bytes of an image, is not added to it', async () => {
    const image = 'iVBORw0KGgo'.repeat(6_000);
    const hostile = await startHostileServer([{ name: 'read_text', inputSchema: objectSchema }, { name: 'read_media', inputSchema: objectSchema }, { name: 'structured_only', inputSchema: objectSchema }], (name) => {
      // The shapes of server-filesystem's answers: its text again under structuredContent, and an image's base64 there too.
      if (name === 'read_text') return { content: [{ type: 'text', text: 'the notes' }], structuredContent: { content: 'the notes' } };
      if (name === 'read_media') return { content: [{ type: 'image', data: image, mimeType: 'image/png' }], structuredContent: { content: [{ type: 'image', data: image, mimeType: 'image/png' }] } };
      return { content: [], structuredContent: { total: 2 } };
    });
    const mcp = await mcpTools(hostile.client);
    expect(await toolNamed(mcp.tools, 'read_text').execute({ q: 'x' }, context())).toBe('the notes');
    expect(await toolNamed(mcp.tools, 'read_media').execute({ q: 'x' }, context())).toBe('[image: image/png, 48.3 KB, not shown]');
    expect(await toolNamed(mcp.tools, 'structured_only').execute({ q: 'x' }, context())).toBe('{"total":2}');
  });

  it('a storm of list-changed notifications lists the tools a few times, not once each, and ends on the last list', async () => {
    const hostile = await startHostileServer([{ name: 'a', inputSchema: objectSchema }]);
    const mcp = await mcpTools(hostile.client);
    const before = hostile.listings();
    for (let index = 0; index < 200; index++) void hostile.server.sendToolListChanged();
    await hostile.setTools([{ name: 'last', inputSchema: objectSchema }]);
    await eventually(() => mcp.tools[0]?.name === 'last');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(hostile.listings() - before).toBeLessThanOrEqual(3);
    expect(mcp.tools.map((tool) => tool.name)).toEqual(['last']);
  });

  it('concurrent calls on one connection each get their own answer', async () => {
    const hostile = await startHostileServer([{ name: 'echo', inputSchema: objectSchema }], async (_name, args) => {
      const q = (args as { q: string }).q;
      await new Promise((resolve) => setTimeout(resolve, 50 - Number(q) * 5));
      return { content: [{ type: 'text', text: `echo ${q}` }] };
    });
    const mcp = await mcpTools(hostile.client);
    const echo = toolNamed(mcp.tools, 'echo');
    const answers = await Promise.all(Array.from({ length: 10 }, (_, index) => echo.execute({ q: String(index) }, context())));
    expect(answers).toEqual(Array.from({ length: 10 }, (_, index) => `echo ${index}`));
  });

  it('an isError result without content still reads as an error, and a protocol error keeps its code', async () => {
    const hostile = await startHostileServer([{ name: 'bare', inputSchema: objectSchema }, { name: 'throws', inputSchema: objectSchema }], (name) => {
      if (name === 'throws') throw new Error('boom inside the server');
      return { content: [], isError: true };
    });
    const mcp = await mcpTools(hostile.client);
    await expect(toolNamed(mcp.tools, 'bare').execute({ q: 'x' }, context())).rejects.toMatchObject({ name: 'McpError', problem: 'tool-call', message: 'the tool "bare" reported an error' });
    const thrown = await Promise.resolve(toolNamed(mcp.tools, 'throws').execute({ q: 'x' }, context())).catch((caught: unknown) => caught);
    expect(thrown).toMatchObject({ name: 'McpError', problem: 'tool-call' });
    expect((thrown as Error).message).toContain('boom inside the server');
  });

  it('refuses bad options at once', async () => {
    const hostile = await startHostileServer([]);
    await expect(mcpTools(hostile.client, { prefix: 'has space' })).rejects.toMatchObject({ name: 'AgentConfigurationError', setting: 'mcpTools.prefix' });
    await expect(mcpTools(hostile.client, { timeoutMs: 0 })).rejects.toMatchObject({ setting: 'mcpTools.timeoutMs' });
    await expect(mcpTools(hostile.client, { invalidTools: 'ignore' as never })).rejects.toMatchObject({ setting: 'mcpTools.invalidTools' });
  });
});
