import { request } from 'node:http';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DevtoolsError } from '../errors/devtools-error';
import { type DevtoolsServer, startDevtools } from './start-devtools';

const servers: DevtoolsServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function serve(lines: readonly object[] = []) {
  const file = join(mkdtempSync(join(tmpdir(), 'keel-devtools-server-')), 'runs.jsonl');
  writeFileSync(file, lines.map((line) => `${JSON.stringify(line)}\n`).join(''));
  const server = await startDevtools({ file, port: 0 });
  servers.push(server);
  return server;
}

/** A raw request, so the Host header and method can be anything a browser or an attacker sends. */
function call(server: DevtoolsServer, path: string, options: { method?: string; host?: string; headers?: Record<string, string> } = {}) {
  return new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }>((resolve, reject) => {
    const sent = request({ host: '127.0.0.1', port: server.port, path, method: options.method ?? 'GET', headers: { host: options.host ?? `127.0.0.1:${server.port}`, ...options.headers } }, (response) => {
      let body = '';
      response.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body }));
    });
    sent.on('error', reject).end();
  });
}

/** A run as a trace holds it: its provider and model (an event), then its journal's first and last entries. */
const run = (runId: string, model: string) => [
  { event: 'run.start', payload: { runId, step: 0, timestamp: 1, provider: 'p', model } },
  { seq: 0, type: 'input', runId, at: 1, step: 0, elapsedMs: 0, start: { version: 1, startedAt: 1 } },
  { seq: 1, type: 'end', runId, at: 2, step: 1, elapsedMs: 1, end: { finishReason: 'stop', usage: { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, totalTokens: 0, modelCalls: 0 } } },
];

describe('startDevtools', () => {
  it('serves one page on 127.0.0.1 that loads nothing from elsewhere and runs only its own script', async () => {
    const server = await serve(run('run-1', 'model-a'));
    expect(server.url).toBe(`http://127.0.0.1:${server.port}/`);
    const page = await call(server, '/');
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    const csp = String(page.headers['content-security-policy']);
    const nonce = /script-src 'nonce-([^']+)'/.exec(csp)?.[1];
    expect(csp).toContain("default-src 'none'");
    expect(page.body).toContain(`<script nonce="${nonce}">`);
    expect(page.body).not.toMatch(/(src|href)="https?:/);
    expect(page.body).toContain('model-a');
    const again = await call(server, '/');
    expect(again.headers['content-security-policy']).not.toBe(csp);
  });

  it('escapes a hostile run id and model name, in the list and in links', async () => {
    const hostile = '"><script>alert(1)</script>';
    const server = await serve(run(hostile, `<img src=x onerror=alert(1)>`));
    const page = await call(server, `/?run=${encodeURIComponent(hostile)}`);
    expect(page.body).not.toContain('<script>alert');
    expect(page.body).not.toContain('<img src=x');
    expect(page.body).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(page.body).toContain(`href="/?run=${encodeURIComponent(hostile)}"`);
  });

  it('answers only its own host names (no DNS rebinding), GET and HEAD only, and 404 elsewhere', async () => {
    const server = await serve();
    await expect(call(server, '/', { host: 'attacker.example:80' })).resolves.toMatchObject({ status: 421 });
    await expect(call(server, '/api/runs', { host: `evil.localhost:${server.port}` })).resolves.toMatchObject({ status: 421 });
    await expect(call(server, '/', { host: `localhost:${server.port}` })).resolves.toMatchObject({ status: 200 });
    await expect(call(server, '/', { method: 'POST' })).resolves.toMatchObject({ status: 405 });
    await expect(call(server, '/../../etc/passwd')).resolves.toMatchObject({ status: 404 });
    await expect(call(server, '/api/nothing')).resolves.toMatchObject({ status: 404 });
    await expect(call(server, '/favicon.ico')).resolves.toMatchObject({ status: 204 });
    await expect(call(server, '/', { method: 'HEAD' })).resolves.toMatchObject({ status: 200, body: '' });
  });

  it('reports the version and the runs as JSON, and says when a run is not in the file', async () => {
    const server = await serve(run('run-1', 'model-a'));
    const version = JSON.parse((await call(server, '/api/version')).body) as { version: number; lines: number };
    expect(version.lines).toBe(3);
    expect(JSON.parse((await call(server, '/api/runs')).body)).toMatchObject([{ runId: 'run-1', status: 'complete' }]);
    const missing = await call(server, '/?run=nope', { headers: { 'x-keel-partial': '1' } });
    expect(missing.body).toContain('No run <code>nope</code>');
    expect(missing.body).not.toContain('<html');
  });

  it('lists runs whose parents loop, each with its loop, and serves their pages', async () => {
    const start = (runId: string, parentRunId: string, timestamp: number) => ({ event: 'run.start', payload: { runId, parentRunId, step: 0, timestamp, provider: 'p', model: 'm' } });
    const server = await serve([start('loop-a', 'loop-b', 1), start('loop-b', 'loop-a', 2)]);
    expect((JSON.parse((await call(server, '/api/runs')).body) as { runId: string }[]).map((run) => run.runId)).toEqual(['loop-b', 'loop-a']);
    const page = await call(server, '/');
    expect(page.body.match(/class="run-link/g)).toHaveLength(2);
    expect(page.body).toContain('its parents loop: loop-a → loop-b → loop-a');
    expect(page.body).toContain('its parents loop: loop-b → loop-a → loop-b');
    const chosen = await call(server, '/?run=loop-a');
    expect(chosen.status).toBe(200);
    expect(chosen.body).toContain('<h2>Run <code>loop-a</code>');
    expect(chosen.body).toContain('data-run-id="loop-b"');
  });

  it('refuses a bad port or file, and a port in use, with a typed error', async () => {
    await expect(startDevtools({ file: 'x.jsonl', port: 70_000 })).rejects.toMatchObject({ name: 'DevtoolsError', problem: 'options', option: 'port' });
    await expect(startDevtools({ file: '', port: 0 })).rejects.toThrow(/file/);
    const server = await serve();
    const busy = await startDevtools({ file: 'x.jsonl', port: server.port }).catch((error: unknown) => error);
    expect(DevtoolsError.isInstance(busy) && [busy.problem, busy.option]).toEqual(['options', 'port']);
    expect(String(busy)).toContain('is in use');
  });

  it('refuses a directory given as the trace file, which every page request would otherwise fail on', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'keel-devtools-folder-'));
    const refused = await startDevtools({ file: folder, port: 0 }).catch((error: unknown) => error);
    expect(DevtoolsError.isInstance(refused) && refused.problem === 'options' && refused.message).toBe(`file: ${folder} is a directory: give the JSON-lines file fileTrace() writes`);
  });
});
