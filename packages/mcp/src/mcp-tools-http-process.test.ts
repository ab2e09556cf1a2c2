import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { startHttpServer } from './testing/http-server';
import { startSseServer } from './testing/sse-server';

const run = promisify(execFile);
const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

/** Runs the fixture against a server; resolves with its answer once the process has exited by itself (status 0). */
async function script(url: string, transport: 'http' | 'sse', ending: 'forget' | 'close' = 'forget'): Promise<{ transport: string; sum: string }> {
  // The bound is a guard against a process that never exits, not a measure of speed.
  const { stdout } = await run(process.execPath, ['--import', 'tsx', '--conditions=@keel/source', here('./testing/forget-close-http-fixture.ts'), url, transport, ending], { cwd: here('..'), timeout: 60_000 });
  return JSON.parse(stdout.trim().split('\n').at(-1) ?? '') as { transport: string; sum: string };
}

describe('an MCP connection over HTTP never keeps a script alive', () => {
  it.each([
    ['Streamable HTTP', 'http', startHttpServer, 'streamable-http'],
    ['HTTP+SSE', 'sse', startSseServer, 'sse'],
  ] as const)('%s: a script that forgets close() exits by itself after its call is answered', async (_, transport, start, kind) => {
    const server = await start();
    try {
      expect(await script(server.url, transport)).toEqual({ transport: kind, sum: '5' });
    } finally {
      await server.close();
    }
  }, 90_000);

  it('a script that awaits close() finishes it (the server drops the session) before it exits', async () => {
    const server = await startHttpServer();
    try {
      expect(await script(server.url, 'http', 'close')).toEqual({ transport: 'streamable-http', sum: '5' });
      expect(server.log.filter((line) => line.startsWith('session closed'))).toHaveLength(1);
      expect(server.sessions()).toBe(0);
    } finally {
      await server.close();
    }
  }, 90_000);
});
