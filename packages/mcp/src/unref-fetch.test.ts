import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { unrefFetch } from './unref-fetch';

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  server = undefined;
});

async function serve(handler: (request: IncomingMessage, response: ServerResponse) => void): Promise<string> {
  server = createServer(handler);
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
}

describe('unrefFetch', () => {
  it('sends the method, headers and body, one connection per request, and reads status, headers and body', async () => {
    const url = await serve((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        response.writeHead(201, 'Made', [['content-type', 'application/json'], ['set-cookie', 'a=1'], ['set-cookie', 'b=2']]);
        response.end(JSON.stringify({ method: request.method, connection: request.headers.connection, token: request.headers.authorization, body: Buffer.concat(chunks).toString('utf8') }));
      });
    });
    const response = await unrefFetch(url, { method: 'POST', headers: { authorization: 'Bearer t', 'content-type': 'application/json' }, body: '{"jsonrpc":"2.0"}' });
    expect(response.status).toBe(201);
    expect(response.statusText).toBe('Made');
    expect(response.headers.getSetCookie()).toEqual(['a=1', 'b=2']);
    expect(await response.json()).toEqual({ method: 'POST', connection: 'close', token: 'Bearer t', body: '{"jsonrpc":"2.0"}' });
  });

  it('gives a 202 or 204 answer without a body, and returns a redirect unfollowed', async () => {
    const url = await serve((request, response) => {
      if (request.url === '/moved') response.writeHead(307, { location: '/elsewhere' }).end();
      else response.writeHead(204).end();
    });
    const empty = await unrefFetch(url, { method: 'DELETE' });
    expect(empty.status).toBe(204);
    expect(empty.body).toBeNull();
    const moved = await unrefFetch(new URL('/moved', url), { redirect: 'manual' });
    expect(moved.status).toBe(307);
    expect(moved.headers.get('location')).toBe('/elsewhere');
  });

  it('streams an event stream as it comes, and an abort ends it', async () => {
    const url = await serve((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.write('event: endpoint\ndata: /messages\n\n');
      // Never ends: a session's notification stream.
    });
    const controller = new AbortController();
    const response = await unrefFetch(url, { headers: { accept: 'text/event-stream' }, signal: controller.signal });
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toBe('event: endpoint\ndata: /messages\n\n');
    controller.abort();
    await expect(reader.read()).rejects.toThrow();
  });

  it('refuses an aborted signal, a refused connection and a URL that is not http(s)', async () => {
    const url = await serve((_request, response) => response.end('ok'));
    await expect(unrefFetch(url, { signal: AbortSignal.abort() })).rejects.toThrow();
    server?.close();
    await expect(unrefFetch('http://127.0.0.1:1/mcp')).rejects.toThrow(/ECONNREFUSED/);
    await expect(unrefFetch('file:///etc/passwd')).rejects.toThrow(/not supported/);
  });
});
