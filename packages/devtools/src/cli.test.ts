import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const cli = fileURLToPath(new URL('./cli.ts', import.meta.url));
const start = (args: readonly string[]) => spawn(process.execPath, ['--import', 'tsx', '--conditions=@keel/source', cli, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });

describe('keel-devtools', () => {
  it('serves the file on the address it prints, and stops cleanly on SIGTERM', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'keel-devtools-cli-')), 'runs.jsonl');
    writeFileSync(file, `${JSON.stringify({ event: 'run.start', payload: { runId: 'cli-run', step: 0, timestamp: 1, provider: 'p', model: 'm' } })}\n`);
    const child = start([file, '--port', '0']);
    const url = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
        out += chunk;
        const found = /http:\/\/127\.0\.0\.1:\d+\//.exec(out);
        if (found) resolve(found[0]);
      });
      child.once('exit', (code) => reject(new Error(`exited with ${code}`)));
    });
    const runs = (await (await fetch(`${url}api/runs`)).json()) as { runId: string }[];
    expect(runs.map((run) => run.runId)).toEqual(['cli-run']);
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await expect(exited).resolves.toBe(0);
  });

  it('exits 2 with the usage on bad arguments', async () => {
    const child = start(['--port', 'eighty']);
    let err = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code).toBe(2);
    expect(err).toContain('port: must be a number');
    expect(err).toContain('Usage: keel-devtools');
  });
});
