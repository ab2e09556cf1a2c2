import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { encodeSseEvent } from './wire-reply';
import type { WireReply } from './wire-reply';

/** One request the wire server received. */
export interface RecordedRequest {
  readonly method: string;
  /** Path and query, e.g. `/v1/messages`. */
  readonly path: string;
  /** Header names in lower case. */
  readonly headers: Readonly<Record<string, string>>;
  /** The body parsed as JSON, or the raw text when it is not JSON. */
  readonly body: unknown;
}

/** A local HTTP server on 127.0.0.1 that replays scripted replies, one per request, in order. */
export interface WireServer {
  /** `http://127.0.0.1:<port>`. */
  readonly url: string;
  /** Every request received, in order. */
  readonly requests: readonly RecordedRequest[];
  /** Adds replies to the end of the script. */
  enqueue(...replies: WireReply[]): void;
  /** Drops every open connection (hanging ones included) and stops the server. */
  close(): Promise<void>;
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

function parseBody(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function headersOf(request: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return headers;
}

async function play(reply: WireReply, response: ServerResponse, request: RecordedRequest): Promise<void> {
  switch (reply.type) {
    case 'respond': {
      let computed: WireReply;
      try {
        computed = reply.respond(request);
      } catch (error) {
        response.writeHead(599, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ error: `wire-server: the computed reply failed: ${error instanceof Error ? error.message : String(error)}` }));
        return;
      }
      await play(computed, response, request);
      return;
    }
    case 'reset':
      response.socket?.destroy();
      return;
    case 'hang':
      return;
    case 'json':
      response.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers });
      response.end(reply.rawBody ?? JSON.stringify(reply.body));
      return;
    case 'sse': {
      response.writeHead(reply.status, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', ...reply.headers });
      response.flushHeaders();
      for (const event of reply.events) {
        if (reply.delayMs > 0) await sleep(reply.delayMs);
        if (response.destroyed) return;
        response.write(encodeSseEvent(event));
      }
      if (reply.ending === 'complete' || reply.ending === 'end') response.end();
      else if (reply.ending === 'destroy') {
        // Let the events reach the client first, so the drop happens mid-stream.
        await sleep(30);
        response.socket?.destroy();
      }
      return;
    }
  }
}

/**
 * Starts a wire server on 127.0.0.1 (a free port) that answers each request with the next
 * scripted reply (or one computed from the request) and records it. A request beyond the script gets a 599 response whose body
 * says so, so a test that sends too many requests fails visibly.
 */
export async function startWireServer(...replies: WireReply[]): Promise<WireServer> {
  const script = [...replies];
  const requests: RecordedRequest[] = [];
  const server = createServer((request, response) => {
    void (async () => {
      const text = await readBody(request);
      const recorded: RecordedRequest = { method: request.method ?? '', path: request.url ?? '', headers: headersOf(request), body: parseBody(text) };
      requests.push(recorded);
      const reply = script.shift();
      if (reply === undefined) {
        response.writeHead(599, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ error: `wire-server: no scripted reply for request ${requests.length}` }));
        return;
      }
      await play(reply, response, recorded);
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    enqueue: (...more) => void script.push(...more),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
