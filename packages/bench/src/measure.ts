/** Median, min and max of per-operation times, in microseconds. */
export interface Timing {
  readonly medianUs: number;
  readonly minUs: number;
  readonly maxUs: number;
  readonly samples: number;
  /** Per-round means in round order, so two contenders' rounds can be paired. */
  readonly rounds: readonly number[];
}

/** Summary statistics of samples. */
export function summarise(samples: readonly number[]): Timing {
  const sorted = [...samples].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  const median = sorted.length % 2 ? (sorted[middle] as number) : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
  return { medianUs: median, minUs: sorted[0] ?? 0, maxUs: sorted[sorted.length - 1] ?? 0, samples: sorted.length, rounds: samples };
}

/** A named asynchronous operation to time. */
export interface Contender {
  readonly name: string;
  readonly run: () => Promise<unknown>;
}

/** Settings of {@link compare}. */
export interface CompareOptions {
  readonly rounds?: number;
  readonly batch?: number;
  readonly warmup?: number;
  /** Runs before each timed batch, untimed: {@link minorGc} starts every batch with an empty young generation. */
  readonly settle?: () => void;
}

/**
 * Times contenders side by side in one process: after a warm-up, each round runs a batch of every
 * contender in turn (order rotated per round), so drift and GC affect all alike. Returns per-run
 * timings by name.
 */
export async function compare(contenders: readonly Contender[], options: CompareOptions = {}): Promise<Map<string, Timing>> {
  const { rounds = 40, batch = 200, warmup = 2000, settle } = options;
  for (const contender of contenders) for (let index = 0; index < warmup; index++) await contender.run();
  const samples = new Map<string, number[]>(contenders.map((contender) => [contender.name, []]));
  for (let round = 0; round < rounds; round++) {
    for (let offset = 0; offset < contenders.length; offset++) {
      const contender = contenders[(round + offset) % contenders.length] as Contender;
      settle?.();
      const started = performance.now();
      for (let index = 0; index < batch; index++) await contender.run();
      samples.get(contender.name)?.push(((performance.now() - started) * 1000) / batch);
    }
  }
  return new Map([...samples].map(([name, list]) => [name, summarise(list)]));
}

/** The ratio a/b of each round (the two ran side by side in it): median and interquartile range. */
export function pairedRatio(a: Timing, b: Timing): { median: number; p25: number; p75: number } {
  const ratios = a.rounds.map((value, index) => value / (b.rounds[index] ?? value)).sort((x, y) => x - y);
  const at = (fraction: number) => ratios[Math.min(ratios.length - 1, Math.floor(fraction * ratios.length))] ?? 0;
  return { median: summarise(ratios).medianUs, p25: at(0.25), p75: at(0.75) };
}

/**
 * A minor (young-generation) collection when the process runs with `--expose-gc`, else nothing.
 * Before a timed batch it keeps the previous batch's garbage out of this one: batches large enough
 * to collect several times still pay for their own garbage, so each contender's GC is counted.
 */
export function minorGc(): void {
  (globalThis as { gc?: (options?: { type: 'minor' | 'major' }) => void }).gc?.({ type: 'minor' });
}

/** Formats microseconds for a table. */
export const us = (value: number) => `${value.toFixed(1)} µs`;
