import { type IncomingMessage, request as httpRequest, type RequestOptions } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { Readable } from 'node:stream';

/** Statuses whose response has no body (a `Response` refuses one). */
const NO_BODY = new Set([101, 103, 204, 205, 304]);

/** A long-lived stream the server pushes on: a GET answered with server-sent events. */
const isEventStream = (method: string, response: IncomingMessage) => method === 'GET' && /^text\/event-stream\b/i.test(response.headers['content-type'] ?? '');

function headersOf(response: IncomingMessage): Headers {
  const headers = new Headers();
  for (let index = 0; index + 1 < response.rawHeaders.length; index += 2) headers.append(response.rawHeaders[index] as string, response.rawHeaders[index + 1] as string);
  return headers;
}

/**
 * `fetch` over `node:http(s)` for MCP connections, so that a connection never keeps the process
 * alive by itself: no keep-alive pool (each request has its connection, closed with its
 * response), and a server's event stream (a GET answered with `text/event-stream`, open for as
 * long as the session) no longer holds the process once its headers have come. A request waiting
 * for its answer is held by the MCP client's request timeout. Redirects are returned, not followed
 * (the MCP SDK follows them itself, within the origin).
 */
export async function unrefFetch(input: string | URL | Request, init?: RequestInit): Promise<Response> {
  const request = new Request(input, init);
  const url = new URL(request.url);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new TypeError(`fetch of ${url.protocol} URLs is not supported`);
  const body = request.body === null ? undefined : Buffer.from(await request.arrayBuffer());
  request.signal.throwIfAborted();
  const headers: Record<string, string> = {};
  request.headers.forEach((value, name) => {
    headers[name] = value;
  });
  if (body !== undefined) headers['content-length'] = String(body.length);
  const options: RequestOptions = { method: request.method, headers, agent: false, signal: request.signal };
  return new Promise<Response>((resolve, reject) => {
    const outgoing = (url.protocol === 'https:' ? httpsRequest : httpRequest)(url, options, (response) => {
      try {
        if (isEventStream(request.method, response)) response.socket.unref();
        const status = response.statusCode ?? 0;
        const stream = NO_BODY.has(status) ? null : (Readable.toWeb(response) as ReadableStream<Uint8Array>);
        if (stream === null) response.resume();
        resolve(new Response(stream, { status, statusText: response.statusMessage ?? '', headers: headersOf(response) }));
      } catch (error) {
        // A status a Response cannot have (below 200): the answer is not HTTP the client reads.
        response.destroy();
        reject(error);
      }
    });
    outgoing.once('error', reject);
    outgoing.end(body);
  });
}
