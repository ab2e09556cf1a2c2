#!/usr/bin/env node
/**
 * Makes sure a real `redis-server` is on PATH before the tests run (the fleet tests start one):
 * `pnpm test` runs this first. When it is missing, it installs the platform's package where the
 * package manager allows it without asking (Debian/Ubuntu's `apt-get` as root or with password-less
 * sudo, Homebrew, Fedora's `dnf` likewise), and otherwise prints the exact command to run and
 * exits non-zero. It never skips the fleet tests and never stands in a fake server.
 */
import { spawnSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Whether an executable named `name` is in one of the `PATH` directories. */
export function onPath(name, path = process.env.PATH ?? '', platform = process.platform) {
  const names = platform === 'win32' ? [`${name}.exe`, `${name}.cmd`, name] : [name];
  for (const directory of path.split(delimiter)) {
    if (directory === '') continue;
    for (const candidate of names) {
      try {
        accessSync(join(directory, candidate), constants.X_OK);
        return true;
      } catch {
        // not here
      }
    }
  }
  return false;
}

/**
 * What to do, from what the machine has: nothing, install (the commands to run, in order), or
 * stop with the exact command for the user (`instruct`). Pure, so every branch is tested.
 * @param {{ found: boolean, platform: string, isRoot: boolean, canSudo: boolean, has: (command: string) => boolean }} machine
 * @returns {{ kind: 'present' } | { kind: 'install', commands: string[][] } | { kind: 'instruct', command: string, reason: string }}
 */
export function planRedis(machine) {
  const { found, platform, isRoot, canSudo, has } = machine;
  if (found) return { kind: 'present' };
  if (platform === 'win32') {
    return { kind: 'instruct', command: 'wsl --install, then in WSL: sudo apt-get install -y redis-server', reason: 'redis-server has no native Windows build: run the tests in WSL' };
  }
  if (platform === 'darwin') {
    if (has('brew')) return { kind: 'install', commands: [['brew', 'install', 'redis']] };
    return { kind: 'instruct', command: 'brew install redis', reason: 'Homebrew is not installed (https://brew.sh)' };
  }
  const elevate = (command) => (isRoot ? command : ['sudo', '-n', ...command]);
  const allowed = isRoot || canSudo;
  if (has('apt-get')) {
    if (allowed) return { kind: 'install', commands: [elevate(['apt-get', 'update']), elevate(['apt-get', 'install', '-y', 'redis-server'])] };
    return { kind: 'instruct', command: 'sudo apt-get update && sudo apt-get install -y redis-server', reason: 'installing needs root, and sudo asks for a password' };
  }
  if (has('dnf')) {
    if (allowed) return { kind: 'install', commands: [elevate(['dnf', 'install', '-y', 'redis'])] };
    return { kind: 'instruct', command: 'sudo dnf install -y redis', reason: 'installing needs root, and sudo asks for a password' };
  }
  if (has('apk')) {
    if (allowed) return { kind: 'install', commands: [elevate(['apk', 'add', 'redis'])] };
    return { kind: 'instruct', command: 'sudo apk add redis', reason: 'installing needs root, and sudo asks for a password' };
  }
  return { kind: 'instruct', command: 'install Redis 7 or later so that redis-server is on PATH (https://redis.io/docs/latest/operate/oss_and_stack/install/)', reason: 'no package manager this script knows (apt-get, dnf, apk, brew) was found' };
}

/** What this machine has. */
export function probeMachine(environment = process.env) {
  const path = environment.PATH ?? '';
  const has = (command) => onPath(command, path);
  return {
    found: has('redis-server'),
    platform: process.platform,
    isRoot: typeof process.getuid === 'function' && process.getuid() === 0,
    canSudo: has('sudo') && spawnSync('sudo', ['-n', 'true'], { stdio: 'ignore' }).status === 0,
    has,
  };
}

function main() {
  const machine = probeMachine();
  const plan = planRedis(machine);
  if (plan.kind === 'present') return 0;
  if (plan.kind === 'instruct') {
    console.error(`✗ The fleet tests need a real redis-server, which is not on PATH, and it cannot be installed here: ${plan.reason}.\n  Run:\n\n    ${plan.command}\n\n  then run the tests again.`);
    return 1;
  }
  console.error(`redis-server is not on PATH; the fleet tests need a real one. Installing it:`);
  for (const command of plan.commands) {
    console.error(`  $ ${command.join(' ')}`);
    const result = spawnSync(command[0], command.slice(1), { stdio: ['ignore', 'inherit', 'inherit'], env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
    if (result.status !== 0) {
      console.error(`✗ "${command.join(' ')}" failed (${result.error?.message ?? `exit code ${result.status}`}). Install redis-server yourself, then run the tests again.`);
      return 1;
    }
  }
  if (!onPath('redis-server')) {
    console.error('✗ The package was installed but redis-server is still not on PATH: add its directory to PATH, then run the tests again.');
    return 1;
  }
  console.error('✓ redis-server installed');
  return 0;
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) process.exitCode = main();
