import type { InstallPlan, Machine, Software } from './ensure-package.mjs';
export const CHROMIUM: Software;
export function planChromium(machine: Machine): InstallPlan;
