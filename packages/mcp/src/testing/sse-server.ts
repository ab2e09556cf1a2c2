import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import { createTestServer } from './test-server.mjs';

/** The test server over the older HTTP+SSE transport only (Streamable HTTP requests get a 405). */
export interface TestSseServer {
  readonly url: string;
  readonly log: string[];
  close(): Promise<void>;
}

export async function startSseServer(): Promise<TestSseServer> {
  const log: string[] = [];
  const transports = new Map<string, SSEServerTransport>();
  const http = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    if (request.method === 'GET' && url.pathname === '/mcp') {
      const transport = new SSEServerTransport('/messages', response);
      transports.set(transport.sessionId, transport);
      response.on('close', () => transports.delete(transport.sessionId));
      void createTestServer({ log, crash: () => http.closeAllConnections() }).connect(transport);
      return;
    }
    const transport = transports.get(url.searchParams.get('sessionId') ?? '');
    if (request.method === 'POST' && url.pathname === '/messages' && transport) {
      void transport.handlePostMessage(request, response);
      return;
    }
    response.writeHead(405).end();
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    log,
    async close() {
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
