/**
 * Makes sure a program the tests run for real (redis-server, Chromium) is on PATH before the tests
 * run: `pnpm test` runs scripts/ensure-redis.mjs and scripts/ensure-chromium.mjs, each built on
 * this. When the program is missing, it installs the platform's package where the package manager
 * allows it without asking (Debian/Ubuntu's `apt-get` as root or with password-less sudo,
 * Homebrew, Fedora's `dnf`, Alpine's `apk` likewise), and otherwise prints the exact command to
 * run and exits non-zero. It never skips tests and never stands in a fake program.
 */
import { spawnSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

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
 * @param {{ program: string, apt: string, dnf: string, apk: string, brew: string[], windows: string, manual: string }} software
 * @returns {{ kind: 'present' } | { kind: 'install', commands: string[][] } | { kind: 'instruct', command: string, reason: string }}
 */
export function planInstall(machine, software) {
  const { found, platform, isRoot, canSudo, has } = machine;
  if (found) return { kind: 'present' };
  if (platform === 'win32') return { kind: 'instruct', command: software.windows, reason: `${software.program} is not set up for the tests on Windows: run them in WSL` };
  if (platform === 'darwin') {
    if (has('brew')) return { kind: 'install', commands: [['brew', 'install', ...software.brew]] };
    return { kind: 'instruct', command: `brew install ${software.brew.join(' ')}`, reason: 'Homebrew is not installed (https://brew.sh)' };
  }
  const elevate = (command) => (isRoot ? command : ['sudo', '-n', ...command]);
  const allowed = isRoot || canSudo;
  const password = 'installing needs root, and sudo asks for a password';
  if (has('apt-get')) {
    if (allowed) return { kind: 'install', commands: [elevate(['apt-get', 'update']), elevate(['apt-get', 'install', '-y', software.apt])] };
    return { kind: 'instruct', command: `sudo apt-get update && sudo apt-get install -y ${software.apt}`, reason: password };
  }
  if (has('dnf')) {
    if (allowed) return { kind: 'install', commands: [elevate(['dnf', 'install', '-y', software.dnf])] };
    return { kind: 'instruct', command: `sudo dnf install -y ${software.dnf}`, reason: password };
  }
  if (has('apk')) {
    if (allowed) return { kind: 'install', commands: [elevate(['apk', 'add', software.apk])] };
    return { kind: 'instruct', command: `sudo apk add ${software.apk}`, reason: password };
  }
  return { kind: 'instruct', command: software.manual, reason: 'no package manager this script knows (apt-get, dnf, apk, brew) was found' };
}

/** What this machine has, looking for `program`. */
export function probeMachine(program, environment = process.env) {
  const path = environment.PATH ?? '';
  const has = (command) => onPath(command, path);
  return {
    found: has(program),
    platform: process.platform,
    isRoot: typeof process.getuid === 'function' && process.getuid() === 0,
    canSudo: has('sudo') && spawnSync('sudo', ['-n', 'true'], { stdio: 'ignore' }).status === 0,
    has,
  };
}

/**
 * Installs `software.program` when it is missing, as planned by {@link planInstall}; `purpose`
 * names the tests that need it. `locate` says whether it is there (default: on PATH), for a
 * program a package keeps elsewhere. Returns the exit code.
 */
export function ensureProgram(software, purpose, locate = { found: () => onPath(software.program), where: 'on PATH' }) {
  const { program } = software;
  const plan = planInstall({ ...probeMachine(program), found: locate.found() }, software);
  if (plan.kind === 'present') return 0;
  if (plan.kind === 'instruct') {
    console.error(`✗ ${purpose} need a real ${program}, which is not ${locate.where}, and it cannot be installed here: ${plan.reason}.\n  Run:\n\n    ${plan.command}\n\n  then run the tests again.`);
    return 1;
  }
  console.error(`${program} is not ${locate.where}; ${purpose} need a real one. Installing it:`);
  for (const command of plan.commands) {
    console.error(`  $ ${command.join(' ')}`);
    const result = spawnSync(command[0], command.slice(1), { stdio: ['ignore', 'inherit', 'inherit'], env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
    if (result.status !== 0) {
      console.error(`✗ "${command.join(' ')}" failed (${result.error?.message ?? `exit code ${result.status}`}). Install ${program} yourself, then run the tests again.`);
      return 1;
    }
  }
  if (!locate.found()) {
    console.error(`✗ The package was installed but ${program} is still not ${locate.where}: add its directory to PATH, then run the tests again.`);
    return 1;
  }
  console.error(`✓ ${program} installed`);
  return 0;
}
