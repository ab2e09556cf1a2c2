/** A machine as {@link planInstall} sees it. */
export interface Machine {
  readonly found: boolean;
  readonly platform: string;
  readonly isRoot: boolean;
  readonly canSudo: boolean;
  has(command: string): boolean;
}
/** A program the tests need, and its package on each platform. */
export interface Software {
  readonly program: string;
  readonly apt: string;
  readonly dnf: string;
  readonly apk: string;
  readonly brew: readonly string[];
  readonly windows: string;
  readonly manual: string;
}
/** What to do about a missing program. */
export type InstallPlan = { kind: 'present' } | { kind: 'install'; commands: string[][] } | { kind: 'instruct'; command: string; reason: string };
export function onPath(name: string, path?: string, platform?: string): boolean;
export function planInstall(machine: Machine, software: Software): InstallPlan;
export function probeMachine(program: string, environment?: Record<string, string | undefined>): Machine;
/** Where a program is looked for: whether it is there, and where that is, for the messages. */
export interface Locate {
  found(): boolean;
  readonly where: string;
}
export function ensureProgram(software: Software, purpose: string, locate?: Locate): number;
