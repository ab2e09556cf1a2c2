import type { InstallPlan, Machine, Software } from './ensure-package.mjs';
export type { Machine } from './ensure-package.mjs';
/** What to do about a missing redis-server. */
export type RedisPlan = InstallPlan;
export const REDIS: Software;
export function onPath(name: string, path?: string, platform?: string): boolean;
export function planRedis(machine: Machine): RedisPlan;
export function probeMachine(environment?: Record<string, string | undefined>): Machine;
