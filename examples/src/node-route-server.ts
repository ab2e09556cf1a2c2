import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import type { AddressInfo } from 'node:net';

/** A Fetch-style route handler, as a Next.js route exports it. */
export type Route = (request: Request) => Promise<Response>;

/** A running server: its URL, and how to stop it. */
export interface RouteServer {
  readonly url: string;
  close(): Promise<void>;
}

/** The Node request as a Fetch `Request`, its body streamed and its signal aborted when the client goes away. */
function requestOf(incoming: IncomingMessage, response: ServerResponse, origin: string): Request {
  const controller = new AbortController();
  response.on('close', () => {
    if (!response.writableFinished) controller.abort();
  });
  const headers = new Headers();
  for (const [name, value] of Object.entries(incoming.headers)) if (typeof value === 'string') headers.set(name, value);
  const hasBody = incoming.method !== 'GET' && incoming.method !== 'HEAD';
  return new Request(new URL(incoming.url ?? '/', origin), {
    method: incoming.method ?? 'GET',
    headers,
    signal: controller.signal,
    ...(hasBody ? { body: Readable.toWeb(incoming) as ReadableStream<Uint8Array>, duplex: 'half' } : {}),
  });
}

/**
 * Serves a Fetch-style handler on a plain Node HTTP server (127.0.0.1, or `host`; a free port, or
 * `port`): every request goes to the handler, and the response body is streamed as it is written.
 */
export async function serveHandler(handler: Route, { port = 0, host = '127.0.0.1' }: { port?: number; host?: string } = {}): Promise<RouteServer> {
  const server = createServer((incoming, outgoing) => {
    const origin = `http://${incoming.headers.host ?? host}`;
    void (async () => {
      const response = await handler(requestOf(incoming, outgoing, origin));
      const headers: Record<string, string> = {};
      response.headers.forEach((value, name) => void (headers[name] = value));
      outgoing.writeHead(response.status, headers);
      if (!response.body) return void outgoing.end();
      const reader = response.body.getReader();
      // A client that goes away cancels the body (a kept stream's run goes on without it).
      outgoing.on('close', () => void reader.cancel().catch(() => undefined));
      for (let next = await reader.read(); !next.done; next = await reader.read()) outgoing.write(next.value);
      outgoing.end();
    })().catch((error: unknown) => {
      if (!outgoing.headersSent) outgoing.writeHead(500);
      outgoing.end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(port, host, resolve));
  const address = server.address() as AddressInfo;
  return {
    url: `http://${host}:${address.port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * Serves a Fetch-style route on a plain Node HTTP server (127.0.0.1, a free port): the route of
 * a Next.js app, run without Next, at `path` and below it (`/api/chat/<id>/stream`).
 */
export async function serveRoute(route: Route, path = '/api/chat'): Promise<RouteServer> {
  const server = await serveHandler(async (request) => {
    const { pathname } = new URL(request.url);
    return pathname === path || pathname.startsWith(`${path}/`) ? route(request) : new Response(null, { status: 404 });
  });
  return { url: `${server.url}${path}`, close: server.close };
}
