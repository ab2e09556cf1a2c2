#!/usr/bin/env node
/**
 * Makes sure a real Chromium is on PATH before the tests run (the trace viewer's tests drive it
 * with playwright-core; no browser is ever downloaded): `pnpm test` runs this;
 * scripts/ensure-package.mjs installs the platform's package where it can, or prints the exact
 * command. It never skips the browser tests.
 */
import { fileURLToPath } from 'node:url';
import { ensureProgram, planInstall } from './ensure-package.mjs';

/** Chromium, by platform (Debian's package puts it at /usr/bin/chromium). */
export const CHROMIUM = {
  program: 'chromium',
  apt: 'chromium',
  dnf: 'chromium',
  apk: 'chromium',
  brew: ['--cask', 'chromium'],
  windows: 'wsl --install, then in WSL: sudo apt-get install -y chromium',
  manual: 'install Chromium so that chromium is on PATH (https://www.chromium.org/getting-involved/download-chromium/)',
};

/** What to do about a missing Chromium (see `planInstall`). */
export const planChromium = (machine) => planInstall(machine, CHROMIUM);

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) process.exitCode = ensureProgram(CHROMIUM, 'The trace viewer tests');
