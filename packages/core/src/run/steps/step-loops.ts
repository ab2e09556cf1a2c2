/** Loops a failed step's call detected before it failed, by the error it failed with: the journal's `failure` entry counts them. */
const failedLoops = new WeakMap<object, number>();

/** A counter of the loops one step call detects (each a nudge, until a rule stops the run). */
export interface LoopCount {
  count: number;
}

/** Notes that the call that failed with `error` had detected `loops` loops. */
export function noteLoops(error: unknown, loops: LoopCount): void {
  if (loops.count > 0 && typeof error === 'object' && error !== null) failedLoops.set(error, loops.count);
}

/** The loops the step call that failed with `error` detected (0 for any other error). */
export function loopsOf(error: unknown): number {
  return typeof error === 'object' && error !== null ? (failedLoops.get(error) ?? 0) : 0;
}
