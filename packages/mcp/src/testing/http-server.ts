import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { createTestServer } from './test-server.mjs';

/** The test server over Streamable HTTP on 127.0.0.1, one MCP session per client. */
export interface TestHttpServer {
  readonly url: string;
  /** What the server saw (see the test server), plus `session closed <id>`. */
  readonly log: string[];
  /** Headers of every request, in order. */
  readonly headers: IncomingMessage['headers'][];
  /** Open sessions. */
  readonly sessions: () => number;
  close(): Promise<void>;
}

async function readBody(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  return text === '' ? undefined : JSON.parse(text);
}

/** Starts the test server; its `crash` tool drops every connection and stops listening mid-call. */
export async function startHttpServer(): Promise<TestHttpServer> {
  const log: string[] = [];
  const headers: IncomingMessage['headers'][] = [];
  const transports = new Map<string, StreamableHTTPServerTransport>();
  const http = createServer((request, response) => {
    headers.push(request.headers);
    void (async () => {
      const sessionId = request.headers['mcp-session-id'];
      const body = request.method === 'POST' ? await readBody(request) : undefined;
      let transport = typeof sessionId === 'string' ? transports.get(sessionId) : undefined;
      if (!transport && request.method === 'POST' && isInitializeRequest(body)) {
        const created = new StreamableHTTPServerTransport({
          sessionIdGenerator: () => randomUUID(),
          onsessioninitialized: (id) => {
            transports.set(id, created);
          },
          onsessionclosed: (id) => {
            transports.delete(id);
            log.push(`session closed ${id}`);
          },
        });
        transport = created;
        const server = createTestServer({
          log,
          crash: () => {
            http.close();
            http.closeAllConnections();
          },
        });
        await server.connect(created);
      }
      if (!transport) {
        response.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message: 'no such session' }, id: null }));
        return;
      }
      await transport.handleRequest(request, response, body);
    })().catch((error: unknown) => {
      if (!response.headersSent) response.writeHead(500).end(String(error));
    });
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    log,
    headers,
    sessions: () => transports.size,
    async close() {
      for (const transport of transports.values()) await transport.close().catch(() => undefined);
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
