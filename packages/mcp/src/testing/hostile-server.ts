import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, type CallToolResult, ListToolsRequestSchema, type Tool } from '@modelcontextprotocol/sdk/types.js';

/** A server whose tool list and answers a test writes by hand (SDK low-level server, in memory). */
export interface HostileServer {
  /** A connected SDK client of the server, to pass to `mcpTools()`. */
  readonly client: Client;
  readonly server: Server;
  /** Calls received: tool name and arguments. */
  readonly calls: { name: string; arguments: unknown }[];
  /** `tools/list` requests received. */
  readonly listings: () => number;
  /** Replaces the listed tools and sends the list-changed notification. */
  setTools(tools: readonly Tool[]): Promise<void>;
}

/**
 * Starts a server listing `tools` as given (any names, any schemas, paged by `pageSize`) and
 * answering each call with `answer(name, arguments)`.
 */
export async function startHostileServer(
  tools: readonly Tool[],
  answer: (name: string, args: unknown) => CallToolResult | Promise<CallToolResult> = () => ({ content: [{ type: 'text', text: 'ok' }] }),
  options: { pageSize?: number; cursor?: (page: number) => string | undefined } = {},
): Promise<HostileServer> {
  let listed = [...tools];
  let listings = 0;
  const calls: { name: string; arguments: unknown }[] = [];
  const server = new Server({ name: 'hostile', version: '1.0.0' }, { capabilities: { tools: { listChanged: true } } });
  server.setRequestHandler(ListToolsRequestSchema, (request) => {
    listings++;
    const size = options.pageSize ?? listed.length;
    const page = request.params?.cursor === undefined ? 0 : Number(request.params.cursor);
    const next = options.cursor ? options.cursor(page) : (page + 1) * size < listed.length ? String(page + 1) : undefined;
    return { tools: listed.slice(page * size, (page + 1) * size), ...(next === undefined ? {} : { nextCursor: next }) };
  });
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    calls.push({ name: request.params.name, arguments: request.params.arguments });
    return answer(request.params.name, request.params.arguments);
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'test', version: '1.0.0' });
  await client.connect(clientSide);
  return {
    client,
    server,
    calls,
    listings: () => listings,
    async setTools(next) {
      listed = [...next];
      await server.sendToolListChanged();
    },
  };
}
