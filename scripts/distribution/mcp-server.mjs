// A stdio MCP server on the app's own @modelcontextprotocol/sdk (its low-level Server, a raw JSON
// Schema): `add` adds two whole numbers; `calls` lists the calls `add` received.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

const calls = [];
const server = new Server({ name: 'distribution', version: '1.0.0' }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, () => ({
  tools: [
    {
      name: 'add',
      description: 'Adds two whole numbers.',
      inputSchema: { type: 'object', properties: { a: { type: 'integer' }, b: { type: 'integer' } }, required: ['a', 'b'], additionalProperties: false },
    },
    { name: 'calls', description: 'The calls add received.', inputSchema: { type: 'object' } },
  ],
}));
server.setRequestHandler(CallToolRequestSchema, ({ params }) => {
  if (params.name === 'calls') return { content: [{ type: 'text', text: JSON.stringify(calls) }] };
  calls.push(params.arguments);
  return { content: [{ type: 'text', text: String(params.arguments.a + params.arguments.b) }] };
});
await server.connect(new StdioServerTransport());
