import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import type { PathLike } from 'node:fs';
import type * as FileSystem from 'node:fs/promises';
import { readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { withFileLock } from './file-lock';

/** Seams into the file system the lock uses, to hold a writer at a chosen point. */
const hooks = vi.hoisted(() => ({
  beforeUnlink: undefined as ((file: string) => Promise<void>) | undefined,
  afterExclusiveCreate: undefined as ((file: string, created: boolean) => void) | undefined,
}));

vi.mock('node:fs/promises', async (importOriginal) => {
  const actual = await importOriginal<typeof FileSystem>();
  return {
    ...actual,
    unlink: async (file: PathLike) => {
      await hooks.beforeUnlink?.(String(file));
      return actual.unlink(file);
    },
    writeFile: async (...args: Parameters<typeof actual.writeFile>) => {
      const [file, , options] = args;
      const exclusive = typeof options === 'object' && options?.flag === 'wx';
      try {
        await actual.writeFile(...args);
      } catch (error) {
        if (exclusive) hooks.afterExclusiveCreate?.(String(file), false);
        throw error;
      }
      if (exclusive) hooks.afterExclusiveCreate?.(String(file), true);
    },
  };
});

/** A pid no process has (above Linux's and macOS's limits). */
const DEAD_PID = '2147483646';
const turns = async (count: number) => {
  for (let turn = 0; turn < count; turn++) await new Promise((resolve) => setImmediate(resolve));
};

let path: string;
let lock: string;
beforeEach(() => {
  path = join(mkdtempSync(join(tmpdir(), 'keel-file-lock-')), 'calls.json');
  lock = `${path}.lock`;
});
afterEach(() => {
  hooks.beforeUnlink = undefined;
  hooks.afterExclusiveCreate = undefined;
});

/** Counts holders of the lock at once, and appends `entry` to the JSON list in `path` while holding it. */
function writers() {
  const state = { holding: 0, most: 0 };
  const append = (entry: string, whileHeld: () => Promise<void> = async () => undefined) =>
    withFileLock(path, async () => {
      state.holding++;
      state.most = Math.max(state.most, state.holding);
      const list = JSON.parse(await readFile(path, 'utf8').catch(() => '[]')) as string[];
      await whileHeld();
      await writeFile(path, JSON.stringify([...list, entry]));
      state.holding--;
    });
  return { state, append, kept: () => JSON.parse(readFileSync(path, 'utf8')) as string[] };
}

describe('withFileLock', () => {
  it('lets one writer remove a stale lock: another that read the same dead owner never removes the lock taken since', async () => {
    writeFileSync(lock, DEAD_PID);
    // The first writer to remove the stale lock stops just before it does, until the other has
    // taken the lock (which it could only do by removing the stale lock too) or has tried three times.
    let paused = false;
    let released = false;
    let attempts = 0;
    let release = () => undefined as void;
    let createdAfterRelease = () => undefined as void;
    const removal = new Promise<void>((resolve) => (release = resolve));
    const lockCreatedAfterRelease = new Promise<void>((resolve) => (createdAfterRelease = resolve));
    hooks.beforeUnlink = async (file) => {
      if (file !== lock || paused) return;
      paused = true;
      await removal;
    };
    hooks.afterExclusiveCreate = (file, created) => {
      if (file !== lock || !paused) return;
      if (released) return createdAfterRelease();
      if (created || ++attempts >= 3) {
        released = true;
        release();
      }
    };
    // A holder stays until the lock has been created again after the paused writer went on.
    const { state, append, kept } = writers();
    await Promise.all([append('first', () => lockCreatedAfterRelease.then(() => turns(20))), append('second', () => lockCreatedAfterRelease.then(() => turns(20)))]);
    expect(paused).toBe(true);
    expect(state.most).toBe(1);
    expect(kept().sort()).toEqual(['first', 'second']);
    expect(existsSync(lock)).toBe(false);
    expect(existsSync(`${lock}.takeover`)).toBe(false);
  });

  it('keeps every write and one holder at a time when many writers of one process find a stale lock together', async () => {
    writeFileSync(lock, DEAD_PID);
    const { state, append, kept } = writers();
    await Promise.all(Array.from({ length: 30 }, (_, index) => append(`write ${index}`, () => turns(2))));
    expect(state.most).toBe(1);
    expect(kept()).toHaveLength(30);
    expect(existsSync(lock)).toBe(false);
  });

  it('is not blocked by a takeover left by a dead process, nor by an old one naming no owner', async () => {
    const { append, kept } = writers();
    writeFileSync(lock, DEAD_PID);
    writeFileSync(`${lock}.takeover`, DEAD_PID);
    await append('after a dead takeover');
    writeFileSync(lock, DEAD_PID);
    writeFileSync(`${lock}.takeover`, '');
    const old = new Date(Date.now() - 60_000);
    utimesSync(`${lock}.takeover`, old, old);
    await append('after an old takeover');
    expect(kept()).toEqual(['after a dead takeover', 'after an old takeover']);
    expect(existsSync(`${lock}.takeover`)).toBe(false);
  });

  it('waits while a live process takes a stale lock over', async () => {
    const { append, kept } = writers();
    writeFileSync(lock, DEAD_PID);
    writeFileSync(`${lock}.takeover`, String(process.pid));
    const waiting = append('after the takeover');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(existsSync(path)).toBe(false);
    expect(readFileSync(lock, 'utf8')).toBe(DEAD_PID);
    unlinkSync(`${lock}.takeover`);
    await waiting;
    expect(kept()).toEqual(['after the takeover']);
  });

  it('keeps every write and one holder at a time when several processes take over a stale lock together', async () => {
    const script = join(dirname(fileURLToPath(import.meta.url)), '..', 'testing', 'take-stale-lock.ts');
    const children = Array.from({ length: 3 }, () => {
      const child = spawn(process.execPath, ['--import', 'tsx', '--conditions=@keel/source', script, path, '8'], { cwd: dirname(script), stdio: ['pipe', 'pipe', 'inherit'] });
      let output = '';
      const ready = new Promise<void>((resolve) => child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()).includes('ready') && resolve()));
      const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
      return { child, ready, exited, output: () => output };
    });
    await Promise.all(children.map((child) => child.ready));
    writeFileSync(lock, DEAD_PID);
    for (const { child } of children) child.stdin.end('go\n');
    expect(await Promise.all(children.map((child) => child.exited))).toEqual([0, 0, 0]);
    expect(children.map((child) => child.output().trim().split('\n'))).toEqual([
      ['ready', 'done'],
      ['ready', 'done'],
      ['ready', 'done'],
    ]);
    expect(writers().kept()).toHaveLength(24);
    expect(existsSync(lock)).toBe(false);
  }, 60_000);
});
