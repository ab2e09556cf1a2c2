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
 * Serves a Fetch-style route on a plain Node HTTP server (127.0.0.1, a free port): the route of
 * a Next.js app, run without Next. The response body is streamed as the route writes it.
 */
export async function serveRoute(route: Route, path = '/api/chat'): Promise<RouteServer> {
  const server = createServer((incoming, outgoing) => {
    const origin = `http://${incoming.headers.host ?? '127.0.0.1'}`;
    if (new URL(incoming.url ?? '/', origin).pathname !== path) return void outgoing.writeHead(404).end();
    void (async () => {
      const response = await route(requestOf(incoming, outgoing, origin));
      const headers: Record<string, string> = {};
      response.headers.forEach((value, name) => void (headers[name] = value));
      outgoing.writeHead(response.status, headers);
      if (!response.body) return void outgoing.end();
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) outgoing.write(chunk);
      outgoing.end();
    })().catch((error: unknown) => {
      if (!outgoing.headersSent) outgoing.writeHead(500);
      outgoing.end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}${path}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}
