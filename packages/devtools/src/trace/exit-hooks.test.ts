import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const child = fileURLToPath(new URL('../testing/trace-then-exit.ts', import.meta.url));

/** Runs the child to its end; its exit code. */
function traceThenExit(path: string, how: 'return' | 'exit' | 'throw'): Promise<number | null> {
  const process_ = spawn(process.execPath, ['--import', 'tsx', '--conditions=@keel/source', child, path, how], { stdio: ['ignore', 'ignore', 'pipe'] });
  return new Promise((resolve) => process_.once('exit', resolve));
}

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
});
