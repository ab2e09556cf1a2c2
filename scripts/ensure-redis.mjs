#!/usr/bin/env node
/**
 * Makes sure a real `redis-server` is on PATH before the tests run (the fleet tests start one):
 * `pnpm test` runs this first; scripts/ensure-package.mjs installs it where it can, or prints the
 * exact command. It never skips the fleet tests and never stands in a fake server.
 */
import { fileURLToPath } from 'node:url';
import { ensureProgram, onPath, planInstall, probeMachine as probe } from './ensure-package.mjs';

export { onPath };

/** Redis 7 or later, by platform. */
export const REDIS = {
  program: 'redis-server',
  apt: 'redis-server',
  dnf: 'redis',
  apk: 'redis',
  brew: ['redis'],
  windows: 'wsl --install, then in WSL: sudo apt-get install -y redis-server',
  manual: 'install Redis 7 or later so that redis-server is on PATH (https://redis.io/docs/latest/operate/oss_and_stack/install/)',
};

/** What to do about a missing redis-server (see `planInstall`). */
export const planRedis = (machine) => planInstall(machine, REDIS);

/** What this machine has. */
export const probeMachine = (environment = process.env) => probe('redis-server', environment);

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) process.exitCode = ensureProgram(REDIS, 'The fleet tests');
