import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { readTrace } from '../testing/read-trace';
import { TraceWriter } from './trace-writer';

const child = fileURLToPath(new URL('../testing/trace-then-exit.ts', import.meta.url));

/** Runs the child to its end (killed if it never ends); its exit code, what it wrote to stderr, and how long it took. */
function runChild(path: string, how: 'return' | 'exit' | 'throw' | 'unused'): Promise<{ code: number | null; stderr: string; ms: number }> {
  const started = Date.now();
  const process_ = spawn(process.execPath, ['--import', 'tsx', '--conditions=@keel/source', child, path, how], { stdio: ['ignore', 'ignore', 'pipe'], timeout: 20_000 });
  let stderr = '';
  process_.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  return new Promise((resolve) => process_.once('close', (code) => resolve({ code, stderr, ms: Date.now() - started })));
}

const temporary = () => join(mkdtempSync(join(tmpdir(), 'keel-trace-exit-')), 'runs.jsonl');

describe('a trace at process exit', () => {
  it.concurrent.each([
    ['the event loop empties without flush()', 'return', 0],
    ['process.exit() right after the runs', 'exit', 0],
    ['an uncaught error', 'throw', 1],
  ] as const)('writes every line received when %s', async (_, how, code) => {
    const path = temporary();
    await expect(runChild(path, how)).resolves.toMatchObject({ code });
    expect(readTrace(path).filter((line) => line.type === 'end')).toHaveLength(2);
  });

  it('neither keeps the process alive nor prints when it was made and never used', async () => {
    const path = temporary();
    await expect(runChild(path, 'unused')).resolves.toMatchObject({ code: 0, stderr: '' });
    expect(existsSync(path)).toBe(false);
  });
});

describe('TraceWriter', () => {
  it('writes a batch at once when it reaches its size, else when its timer fires', async () => {
    const path = temporary();
    const writer = new TraceWriter({ path, maxPending: 3, delayMs: 50 });
    for (const index of [1, 2]) writer.push(`{"n":${index}}\n`);
    expect(existsSync(path)).toBe(false);
    writer.push('{"n":3}\n');
    expect(readTrace(path)).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);
    writer.push('{"n":4}\n');
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(readTrace(path)).toHaveLength(4);
  });

  it('starts its lines on a line of their own when the file ends inside one (a writer that crashed mid-line)', async () => {
    const path = temporary();
    const { writeFileSync } = await import('node:fs');
    writeFileSync(path, '{"cut":');
    const writer = new TraceWriter({ path, maxPending: 10 });
    writer.push('{"n":1}\n');
    writer.write();
    const { readFileSync } = await import('node:fs');
    expect(readFileSync(path, 'utf8')).toBe('{"cut":\n{"n":1}\n');
  });
});
