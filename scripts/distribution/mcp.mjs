// @keel/mcp from its tarball on the app's own @modelcontextprotocol/sdk: a scripted agent calls a
// stdio MCP server's tool with bad arguments, is re-asked, and the corrected call runs once on the
// server; the CommonJS build loads too.
import { createRequire } from 'node:module';
import { Agent } from '@keel/core';
import { scriptedModel } from '@keel/core/test';
import { McpError, mcpTools } from '@keel/mcp';

const fail = (message) => {
  console.error(`mcp: ${message}`);
  process.exit(1);
};

const tools = await mcpTools({ command: process.execPath, args: ['mcp-server.mjs'] }, { prefix: 'calc' });
try {
  const model = scriptedModel([
    { toolCalls: [{ id: 'c1', name: 'calc_add', arguments: { a: 'two', b: 3 } }] },
    { toolCalls: [{ id: 'c1', name: 'calc_add', arguments: { a: 2, b: 3 } }] },
    'Five.',
  ]);
  const result = await Agent.create({ provider: model, model: 'scripted' }).tools(tools.tools).build().run('2 + 3?');
  const call = result.toolCalls[0];
  if (result.toolCalls.length !== 1 || call?.output !== '5' || model.calls !== 3) fail(`agent run: ${JSON.stringify(result.toolCalls)} after ${model.calls} model calls`);
  const seen = await tools.tools.find((tool) => tool.name === 'calc_calls').execute({}, { runId: 'check', step: 1, toolCallId: 'check', signal: new AbortController().signal });
  if (seen !== '[{"a":2,"b":3}]') fail(`the server received ${seen}, not the corrected call once`);
} finally {
  await tools.close();
}
const after = await tools.tools[0].execute({ a: 1, b: 1 }, { runId: 'check', step: 1, toolCallId: 'check', signal: new AbortController().signal }).catch((error) => error);
if (!McpError.isInstance(after) || after.problem !== 'connection') fail(`a call after close(): ${after}`);

const commonjs = createRequire(import.meta.url)('@keel/mcp');
if (typeof commonjs.mcpTools !== 'function' || typeof commonjs.McpError !== 'function') fail('the CommonJS build does not export mcpTools');
console.log('mcp: ok (stdio server on the app\'s MCP SDK, bad arguments re-asked, the corrected call run once; CommonJS loads)');
