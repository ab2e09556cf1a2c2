import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const child = fileURLToPath(new URL('../testing/trace-then-exit.ts', import.meta.url));

/** Runs the child to its end (killed if it never ends); its exit code and what it wrote to stderr. */
function runChild(path: string, how: 'return' | 'exit' | 'throw' | 'unused'): Promise<{ code: number | null; stderr: string }> {
  const process_ = spawn(process.execPath, ['--import', 'tsx', '--conditions=@keel/source', child, path, how], { stdio: ['ignore', 'ignore', 'pipe'], timeout: 20_000 });
  let stderr = '';
  process_.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  return new Promise((resolve) => process_.once('close', (code) => resolve({ code, stderr })));
}

const traceThenExit = async (path: string, how: 'return' | 'exit' | 'throw') => (await runChild(path, how)).code;

const eventsOf = (path: string) =>
  readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => (JSON.parse(line) as { event: string }).event);

describe('a trace at process exit', () => {
  it.concurrent.each([
    ['the event loop empties without flush()', 'return', 0],
    ['process.exit() right after the runs', 'exit', 0],
    ['an uncaught error', 'throw', 1],
  ] as const)('writes every run received when %s', async (_, how, code) => {
    const path = join(mkdtempSync(join(tmpdir(), 'keel-trace-exit-')), 'runs.jsonl');
    await expect(traceThenExit(path, how)).resolves.toBe(code);
    const events = eventsOf(path);
    expect(events).toEqual(['run.record', 'run.record']);
  });

  it('neither keeps the process alive nor prints when it was made and never used', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'keel-trace-exit-')), 'runs.jsonl');
    await expect(runChild(path, 'unused')).resolves.toEqual({ code: 0, stderr: '' });
    expect(existsSync(path)).toBe(false);
  });
});
