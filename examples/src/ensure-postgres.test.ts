import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { findPostgresBin, planPostgres } from '../../scripts/ensure-postgres.mjs';

/** `pnpm test` first runs scripts/ensure-postgres.mjs, so a fresh machine gets a real PostgreSQL. */

const machine = (overrides: Partial<Parameters<typeof planPostgres>[0]> & { commands?: readonly string[] } = {}) => {
  const commands = new Set(overrides.commands ?? []);
  return { found: false, platform: 'linux', isRoot: false, canSudo: false, has: (command: string) => commands.has(command), ...overrides };
};

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});
/** A fresh folder holding the named fake executables under `path` (a relative folder). */
function fakePrograms(path: string, ...executables: string[]) {
  const root = mkdtempSync(join(tmpdir(), 'keel-ensure-postgres-'));
  folders.push(root);
  const folder = join(root, path);
  mkdirSync(folder, { recursive: true });
  for (const name of executables) {
    writeFileSync(join(folder, name), '#!/bin/sh\nexit 0\n');
    chmodSync(join(folder, name), 0o755);
  }
  return { root, folder };
}

describe('planPostgres', () => {
  it("installs Debian's postgresql package with apt-get as root, or through password-less sudo", () => {
    expect(planPostgres(machine({ found: true, commands: ['apt-get'] }))).toEqual({ kind: 'present' });
    expect(planPostgres(machine({ isRoot: true, commands: ['apt-get'] }))).toEqual({ kind: 'install', commands: [['apt-get', 'update'], ['apt-get', 'install', '-y', 'postgresql']] });
    expect(planPostgres(machine({ commands: ['apt-get'] }))).toMatchObject({ kind: 'instruct', command: 'sudo apt-get update && sudo apt-get install -y postgresql' });
  });
});

describe('findPostgresBin', () => {
  it('finds initdb and postgres on PATH first, both or neither', () => {
    expect(findPostgresBin(fakePrograms('bin', 'initdb', 'postgres').folder, '/nowhere')).toMatch(/bin$/);
    expect(findPostgresBin(fakePrograms('bin', 'initdb').folder, '/nowhere')).toBeUndefined();
  });

  it("finds the newest of Debian's versioned folders, which are off PATH", () => {
    const { root } = fakePrograms('9.6/bin', 'initdb', 'postgres');
    for (const version of ['15', '16']) {
      mkdirSync(join(root, version, 'bin'), { recursive: true });
      for (const name of ['initdb', 'postgres']) {
        writeFileSync(join(root, version, 'bin', name), '#!/bin/sh\nexit 0\n');
        chmodSync(join(root, version, 'bin', name), 0o755);
      }
    }
    mkdirSync(join(root, 'not-a-version'));
    expect(findPostgresBin('', root)).toBe(join(root, '16', 'bin'));
    expect(findPostgresBin('', join(root, 'missing'))).toBeUndefined();
  });
});
