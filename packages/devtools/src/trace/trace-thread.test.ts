import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const child = fileURLToPath(new URL('../testing/traces-let-go.ts', import.meta.url));
const sealAfterClose = fileURLToPath(new URL('../testing/seal-after-close.ts', import.meta.url));

describe('the thread writing traces', () => {
  it('lets a trace go once nothing references it: a trace made for each task does not hold its slab for the life of the process', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'keel-trace-let-go-')), 'runs.jsonl');
    const done = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', '--conditions=@keel/source', child, path], { encoding: 'utf8', timeout: 60_000 });
    expect(done.status, done.stderr).toBe(0);
    // Each served trace holds its 4 MiB slab on both threads; the last made may still be referenced.
    expect(Number(done.stdout.trim())).toBeLessThanOrEqual(1);
    const records = readFileSync(path, 'utf8').split('\n').filter((line) => line.includes('"run.record"'));
    expect(records).toHaveLength(100);
  });

  it('lets the process end when a seal is answered after its trace was let go', () => {
    const done = spawnSync(process.execPath, ['--import', 'tsx', '--conditions=@keel/source', sealAfterClose], { encoding: 'utf8', timeout: 20_000 });
    expect(done.signal).toBeNull();
    expect(done.status, done.stderr).toBe(0);
  });
});
