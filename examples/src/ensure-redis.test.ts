import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { onPath, planRedis } from '../../scripts/ensure-redis.mjs';

/** `pnpm test` first runs scripts/ensure-redis.mjs, so a fresh machine gets a real redis-server. */

const script = fileURLToPath(new URL('../../scripts/ensure-redis.mjs', import.meta.url));
const machine = (overrides: Partial<Parameters<typeof planRedis>[0]> & { commands?: readonly string[] } = {}) => {
  const commands = new Set(overrides.commands ?? []);
  return { found: false, platform: 'linux', isRoot: false, canSudo: false, has: (command: string) => commands.has(command), ...overrides };
};

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});
/** A PATH of one fresh folder holding node and the named fake executables. */
function fakePath(...executables: string[]) {
  const folder = mkdtempSync(join(tmpdir(), 'keel-ensure-redis-'));
  folders.push(folder);
  symlinkSync(process.execPath, join(folder, 'node'));
  for (const name of executables) {
    writeFileSync(join(folder, name), '#!/bin/sh\nexit 0\n');
    chmodSync(join(folder, name), 0o755);
  }
  return folder;
}

describe('planRedis', () => {
  it('does nothing when redis-server is on PATH', () => {
    expect(planRedis(machine({ found: true, commands: ['apt-get'] }))).toEqual({ kind: 'present' });
  });

  it("installs Debian's package with apt-get as root, or through password-less sudo", () => {
    expect(planRedis(machine({ isRoot: true, commands: ['apt-get'] }))).toEqual({ kind: 'install', commands: [['apt-get', 'update'], ['apt-get', 'install', '-y', 'redis-server']] });
    expect(planRedis(machine({ canSudo: true, commands: ['apt-get'] }))).toEqual({ kind: 'install', commands: [['sudo', '-n', 'apt-get', 'update'], ['sudo', '-n', 'apt-get', 'install', '-y', 'redis-server']] });
  });

  it('prints the exact command when installing would need a password', () => {
    expect(planRedis(machine({ commands: ['apt-get'] }))).toMatchObject({ kind: 'instruct', command: 'sudo apt-get update && sudo apt-get install -y redis-server' });
    expect(planRedis(machine({ commands: ['dnf'] }))).toMatchObject({ kind: 'instruct', command: 'sudo dnf install -y redis' });
  });

  it('Homebrew on macOS, WSL on Windows, and a clear word where no package manager is known', () => {
    expect(planRedis(machine({ platform: 'darwin', commands: ['brew'] }))).toEqual({ kind: 'install', commands: [['brew', 'install', 'redis']] });
    expect(planRedis(machine({ platform: 'darwin' }))).toMatchObject({ kind: 'instruct', command: 'brew install redis' });
    expect(planRedis(machine({ platform: 'win32' }))).toMatchObject({ kind: 'instruct' });
    expect(planRedis(machine({ isRoot: true }))).toMatchObject({ kind: 'instruct', reason: expect.stringContaining('no package manager') });
  });
});

describe('scripts/ensure-redis.mjs', () => {
  it('finds executables on PATH only', () => {
    const folder = fakePath('redis-server');
    expect(onPath('redis-server', folder)).toBe(true);
    expect(onPath('redis-server', fakePath())).toBe(false);
  });

  it('exits 0 at once when redis-server is on PATH', () => {
    const run = spawnSync(process.execPath, [script], { env: { PATH: fakePath('redis-server') }, encoding: 'utf8' });
    expect(run.status).toBe(0);
    expect(run.stderr).toBe('');
  });

  it('exits non-zero with the command to run when it cannot install', () => {
    const run = spawnSync(process.execPath, [script], { env: { PATH: fakePath() }, encoding: 'utf8' });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('redis-server');
    expect(run.stderr).toContain('Run:');
  });

  it('runs the install commands it planned, and fails when they do not put redis-server on PATH', () => {
    // A fake apt-get that succeeds without installing anything: the script must notice.
    const folder = fakePath('apt-get', 'sudo');
    const run = spawnSync(process.execPath, [script], { env: { PATH: folder }, encoding: 'utf8' });
    const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(isRoot ? '$ apt-get install -y redis-server' : '$ sudo -n apt-get install -y redis-server');
    expect(run.stderr).toContain('still not on PATH');
  });
});
