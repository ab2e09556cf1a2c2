import type { InstallPlan, Machine, Software } from './ensure-package.mjs';
export type { Machine } from './ensure-package.mjs';
/** What to do about a missing PostgreSQL. */
export type PostgresPlan = InstallPlan;
export const POSTGRES: Software;
export const DEBIAN_ROOT: string;
export function findPostgresBin(path?: string, root?: string): string | undefined;
export function planPostgres(machine: Machine): PostgresPlan;
export function probeMachine(environment?: Record<string, string | undefined>): Machine;
