/** A machine as {@link planRedis} sees it. */
export interface Machine {
  readonly found: boolean;
  readonly platform: string;
  readonly isRoot: boolean;
  readonly canSudo: boolean;
  has(command: string): boolean;
}
/** What to do about a missing redis-server. */
export type RedisPlan = { kind: 'present' } | { kind: 'install'; commands: string[][] } | { kind: 'instruct'; command: string; reason: string };
export function onPath(name: string, path?: string, platform?: string): boolean;
export function planRedis(machine: Machine): RedisPlan;
export function probeMachine(environment?: Record<string, string | undefined>): Machine;
