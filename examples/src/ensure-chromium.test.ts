import { describe, expect, it } from 'vitest';
import { planChromium } from '../../scripts/ensure-chromium.mjs';

/** `pnpm test` runs scripts/ensure-chromium.mjs, so a fresh machine gets the real Chromium the viewer's tests drive. */

const machine = (overrides: { found?: boolean; platform?: string; isRoot?: boolean; canSudo?: boolean; commands?: readonly string[] } = {}) => {
  const commands = new Set(overrides.commands ?? []);
  return { found: false, platform: 'linux', isRoot: false, canSudo: false, ...overrides, has: (command: string) => commands.has(command) };
};

describe('planChromium', () => {
  it("installs Debian's chromium with apt-get as root, does nothing when it is there", () => {
    expect(planChromium(machine({ isRoot: true, commands: ['apt-get'] }))).toEqual({ kind: 'install', commands: [['apt-get', 'update'], ['apt-get', 'install', '-y', 'chromium']] });
    expect(planChromium(machine({ found: true }))).toEqual({ kind: 'present' });
  });

  it('prints the exact command where installing needs a password, and the cask on macOS', () => {
    expect(planChromium(machine({ commands: ['apt-get'] }))).toMatchObject({ kind: 'instruct', command: 'sudo apt-get update && sudo apt-get install -y chromium' });
    expect(planChromium(machine({ platform: 'darwin', commands: ['brew'] }))).toEqual({ kind: 'install', commands: [['brew', 'install', '--cask', 'chromium']] });
  });
});
