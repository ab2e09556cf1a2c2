import { readFile } from 'node:fs/promises';
import { pathToFileURL } from 'node:url';
import { type Agent, memoryStreamChunks, memorySuspendedRuns, type StreamChunkStore, type SuspendedRunStore } from '@keel/core';
import { supportAgent } from '../approvals';
import { chatRoute } from '../chat-route';
import { type RouteServer, serveHandler } from '../node-route-server';
import { providerFromEnv } from '../providers/provider-from-env';
import { buildChatPage } from './build';
import { deskTarget } from './desk-model';

const PAGE = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <title>Refund desk</title>
    <link rel="icon" href="data:," />
    <style>
      body { font: 15px/1.5 system-ui, sans-serif; max-width: 46rem; margin: 2rem auto; padding: 0 1rem; }
      .message { margin: 0.75rem 0; padding: 0.5rem 0.75rem; border-radius: 0.5rem; }
      .user { background: #eef3ff; } .assistant { background: #f5f5f5; }
      .tool code { font-size: 13px; } form { display: flex; gap: 0.5rem; } input { flex: 1; padding: 0.4rem; }
    </style>
  </head>
  <body>
    <div id="root"></div>
    <script type="module" src="/page.js"></script>
  </body>
</html>
`;

/** What the chat app serves: the route's agent, and its stores (in memory by default; Redis across instances). */
export interface ChatAppOptions {
  readonly agent: Agent<string, boolean>;
  readonly suspended?: SuspendedRunStore;
  readonly streams?: StreamChunkStore;
  readonly port?: number;
}

/**
 * The chat app: the page (`/`), its bundle built with esbuild (`/page.js`), and the chat route
 * (`/api/chat`, with `/api/chat/<id>/stream` for a client that reconnects), on Node's own HTTP server.
 */
export async function startChatApp(options: ChatAppOptions): Promise<RouteServer> {
  const script = await readFile(await buildChatPage());
  const route = chatRoute(options.agent, options.suspended ?? memorySuspendedRuns(), options.streams ?? memoryStreamChunks());
  return serveHandler(
    async (request) => {
      const { pathname } = new URL(request.url);
      if (pathname === '/api/chat' || pathname.startsWith('/api/chat/')) return route(request);
      if (request.method !== 'GET') return new Response(null, { status: 405 });
      if (pathname === '/') return new Response(PAGE, { headers: { 'content-type': 'text/html; charset=utf-8' } });
      if (pathname === '/page.js') return new Response(script, { headers: { 'content-type': 'text/javascript; charset=utf-8' } });
      return new Response(null, { status: 404 });
    },
    options.port === undefined ? {} : { port: options.port },
  );
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { agent } = supportAgent(providerFromEnv() ?? deskTarget());
  const app = await startChatApp({ agent, port: Number(process.env.PORT ?? 3000) });
  console.log(`The refund desk: ${app.url}/ (try: "My order A-1001 arrived damaged. I want my money back."). Ctrl-C stops it.`);
}
