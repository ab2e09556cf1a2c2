import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

/** One request the wire server received. */
export interface RecordedRequest {
  readonly method: string;
  /** Path and query, e.g. `/v1beta/models/gemini-2.5-flash:generateContent`. */
  readonly path: string;
  /** Header names in lower case. */
  readonly headers: Readonly<Record<string, string>>;
  /** The body parsed as JSON, or the raw text when it is not JSON. */
  readonly body: unknown;
}

/** How a scripted event stream ends: normally, cleanly but early, or with the socket destroyed mid-way. */
export type SseEnding = 'complete' | 'end' | 'destroy';

/** A scripted answer to one request. */
export type WireReply =
  | { readonly kind: 'json'; readonly status: number; readonly headers: Readonly<Record<string, string>>; readonly body: unknown }
  | { readonly kind: 'text'; readonly status: number; readonly body: string }
  | { readonly kind: 'sse'; readonly events: readonly unknown[]; readonly ending: SseEnding; readonly delayMs: number }
  | { readonly kind: 'hang' };

/** A JSON response (status 200 unless given). */
export const jsonReply = (body: unknown, status = 200, headers: Record<string, string> = {}): WireReply => ({ kind: 'json', status, headers, body });
/** A response whose body is the given text, as it is (for bodies that are not JSON). */
export const textReply = (body: string, status = 200): WireReply => ({ kind: 'text', status, body });
/** A `text/event-stream` of `data:` events (Gemini's `alt=sse`), JSON-encoded unless strings. */
export const sseReply = (events: readonly unknown[], options: { ending?: SseEnding; delayMs?: number } = {}): WireReply => ({ kind: 'sse', events, ending: options.ending ?? 'complete', delayMs: options.delayMs ?? 0 });
/** A server that never answers. */
export const hangReply = (): WireReply => ({ kind: 'hang' });

/** A local HTTP server on 127.0.0.1 that replays scripted replies, one per request, in order. */
export interface WireServer {
  readonly url: string;
  readonly requests: readonly RecordedRequest[];
  enqueue(...replies: WireReply[]): void;
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

async function play(reply: WireReply, response: ServerResponse): Promise<void> {
  switch (reply.kind) {
    case 'hang':
      return;
    case 'json':
      response.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers });
      response.end(JSON.stringify(reply.body));
      return;
    case 'text':
      response.writeHead(reply.status, { 'content-type': 'application/json' });
      response.end(reply.body);
      return;
    case 'sse':
      response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      response.flushHeaders();
      for (const event of reply.events) {
        if (reply.delayMs > 0) await sleep(reply.delayMs);
        if (response.destroyed) return;
        response.write(`data: ${typeof event === 'string' ? event : JSON.stringify(event)}\n\n`);
      }
      if (reply.ending === 'destroy') {
        // Let the events reach the client first, so the drop happens mid-stream.
        await sleep(30);
        response.socket?.destroy();
      } else response.end();
      return;
  }
}

/**
 * Starts a server on 127.0.0.1 (a free port) that answers each request with the next scripted
 * reply and records it; a request beyond the script gets a 599 that says so.
 */
export async function startWireServer(...replies: WireReply[]): Promise<WireServer> {
  const script = [...replies];
  const requests: RecordedRequest[] = [];
  const server = createServer((request, response) => {
    void (async () => {
      const text = await readBody(request);
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(request.headers)) if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
      requests.push({ method: request.method ?? '', path: request.url ?? '', headers, body: parseBody(text) });
      const reply = script.shift();
      if (reply === undefined) {
        response.writeHead(599, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ error: { code: 599, message: `wire-server: no scripted reply for request ${requests.length}` } }));
        return;
      }
      await play(reply, response);
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
