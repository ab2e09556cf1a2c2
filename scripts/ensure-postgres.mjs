#!/usr/bin/env node
/**
 * Makes sure a real PostgreSQL server can be started before the tests run (the @keel/postgres
 * tests run `initdb` and `postgres` in a temporary directory): `pnpm test` runs this first;
 * scripts/ensure-package.mjs installs it where it can, or prints the exact command. It never
 * skips those tests and never stands in a fake server.
 */
import { accessSync, constants, readdirSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureProgram, planInstall, probeMachine as probe } from './ensure-package.mjs';

/** PostgreSQL 13 or later, by platform. */
export const POSTGRES = {
  program: 'initdb',
  apt: 'postgresql',
  dnf: 'postgresql-server',
  apk: 'postgresql',
  brew: ['postgresql@17'],
  windows: 'wsl --install, then in WSL: sudo apt-get install -y postgresql',
  manual: 'install PostgreSQL 13 or later so that initdb and postgres are on PATH (https://www.postgresql.org/download/)',
};

/** Where Debian's `postgresql` package keeps each major version's programs (off PATH): `<root>/<version>/bin`. */
export const DEBIAN_ROOT = '/usr/lib/postgresql';

function executable(path) {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * The directory holding `initdb` and `postgres`: the first `PATH` directory with both (Homebrew,
 * Fedora, Alpine), else the newest `<root>/<version>/bin` (Debian). `undefined` when PostgreSQL
 * is not installed.
 */
export function findPostgresBin(path = process.env.PATH ?? '', root = DEBIAN_ROOT) {
  const has = (directory) => executable(join(directory, 'initdb')) && executable(join(directory, 'postgres'));
  for (const directory of path.split(delimiter)) if (directory !== '' && has(directory)) return directory;
  let versions;
  try {
    versions = readdirSync(root).filter((name) => /^\d+(\.\d+)?$/.test(name));
  } catch {
    return undefined;
  }
  versions.sort((left, right) => Number.parseFloat(right) - Number.parseFloat(left));
  return versions.map((version) => join(root, version, 'bin')).find(has);
}

/** What to do about a missing PostgreSQL (see `planInstall`). */
export const planPostgres = (machine) => planInstall(machine, POSTGRES);

/** What this machine has. */
export const probeMachine = (environment = process.env) => ({ ...probe('initdb', environment), found: findPostgresBin(environment.PATH ?? '') !== undefined });

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  process.exitCode = ensureProgram(POSTGRES, 'The postgres tests', { found: () => findPostgresBin() !== undefined, where: `on PATH or in ${DEBIAN_ROOT}/<version>/bin` });
}
