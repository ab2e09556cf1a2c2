import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { renderApp, renderPage } from '../page/render-page';
import { type TraceRuns, traceRuns } from '../view/build-run-views';
import type { TraceFileReader, TraceSnapshot } from '../view/trace-file-reader';

/** Headers of every answer: nothing cached, nothing framed, nothing loaded from another origin. */
const BASE_HEADERS = {
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'cross-origin-resource-policy': 'same-origin',
  'cross-origin-opener-policy': 'same-origin',
};

/** Only what the page's own nonce allows runs or styles it: injected markup can do nothing. */
const policy = (nonce: string) =>
  `default-src 'none'; script-src 'nonce-${nonce}'; style-src 'nonce-${nonce}'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`;

/** Serves the viewer of one trace file. */
export class RequestHandler {
  private cached: { version: number; runs: TraceRuns } | undefined;

  constructor(
    private readonly file: string,
    private readonly reader: TraceFileReader,
    /** Host headers answered (`127.0.0.1:<port>`, `localhost:<port>`): others may be a DNS rebinding attack. */
    private readonly hosts: () => readonly string[],
  ) {}

  private runsOf(snapshot: TraceSnapshot): TraceRuns {
    if (this.cached?.version !== snapshot.version) this.cached = { version: snapshot.version, runs: traceRuns(snapshot.lines) };
    return this.cached.runs;
  }

  async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const send = (status: number, type: string, body: string, headers: Record<string, string> = {}) => {
      response.writeHead(status, { ...BASE_HEADERS, 'content-type': type, ...headers });
      response.end(request.method === 'HEAD' ? undefined : body);
    };
    if (!this.hosts().includes((request.headers.host ?? '').toLowerCase())) return send(421, 'text/plain; charset=utf-8', 'This viewer answers on 127.0.0.1 and localhost only.\n');
    if (request.method !== 'GET' && request.method !== 'HEAD') return send(405, 'text/plain; charset=utf-8', 'Only GET and HEAD.\n', { allow: 'GET, HEAD' });
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    if (url.pathname === '/favicon.ico') return send(204, 'image/x-icon', '');
    if (url.pathname !== '/' && !url.pathname.startsWith('/api/')) return send(404, 'text/plain; charset=utf-8', 'Not found.\n');
    const snapshot = await this.reader.read();
    if (url.pathname === '/api/version') return send(200, 'application/json', JSON.stringify({ version: snapshot.version, lines: snapshot.lines.length, skippedLines: snapshot.skippedLines, exists: snapshot.exists }));
    const runs = this.runsOf(snapshot);
    if (url.pathname === '/api/runs') return send(200, 'application/json', JSON.stringify(runs.runs));
    if (url.pathname !== '/') return send(404, 'text/plain; charset=utf-8', 'Not found.\n');
    const runId = url.searchParams.get('run') ?? undefined;
    const compare = url.searchParams.get('compare')?.split(',').slice(0, 2);
    const page = { file: this.file, snapshot, runs, ...(runId === undefined ? {} : { runId }), ...(compare === undefined ? {} : { compare }) };
    const nonce = randomBytes(16).toString('base64');
    if (request.headers['x-keel-partial'] === '1') return send(200, 'text/html; charset=utf-8', renderApp(page).html, { 'content-security-policy': policy(nonce) });
    send(200, 'text/html; charset=utf-8', renderPage(page, nonce), { 'content-security-policy': policy(nonce) });
  }
}
