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

/** Settings of {@link interleave}. */
export interface InterleaveOptions {
  readonly rounds: number;
  /** Blocks a contender runs in a round; each block is `block` calls, timed alone. */
  readonly blocks: number;
  readonly block: number;
  readonly warmup: number;
  /** Runs after each round, untimed (a trace's flush, a collection). */
  readonly between?: () => Promise<void> | void;
}

/** The same shuffles every time (a linear congruential generator): runs of the benchmark stay comparable. */
function shuffler(seed: number): <T>(items: readonly T[]) => T[] {
  let state = seed;
  const next = () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
  return (items) => {
    const shuffled = [...items];
    for (let index = shuffled.length - 1; index > 0; index--) {
      const other = Math.floor(next() * (index + 1));
      [shuffled[index], shuffled[other]] = [shuffled[other] as (typeof shuffled)[number], shuffled[index] as (typeof shuffled)[number]];
    }
    return shuffled;
  };
}

/**
 * Times contenders side by side at a finer grain than {@link compare}: each round is many short
 * blocks, every contender's block in turn, in a new random order each time, so that a drift of
 * the machine's speed within a round falls on all alike and no contender always follows the same
 * other (a block runs faster after its own kind: warm caches, warm branch predictors). Returns
 * per-call timings by name, one mean a round, so rounds can be paired.
 */
export async function interleave(contenders: readonly Contender[], options: InterleaveOptions): Promise<Map<string, Timing>> {
  const { rounds, blocks, block, warmup, between } = options;
  for (const contender of contenders) for (let index = 0; index < warmup; index++) await contender.run();
  await between?.();
  const shuffle = shuffler(2026);
  const samples = new Map<string, number[]>(contenders.map((contender) => [contender.name, []]));
  for (let round = 0; round < rounds; round++) {
    const spent = new Map<string, number>(contenders.map((contender) => [contender.name, 0]));
    for (let index = 0; index < blocks; index++) {
      for (const contender of shuffle(contenders)) {
        const started = performance.now();
        for (let call = 0; call < block; call++) await contender.run();
        spent.set(contender.name, (spent.get(contender.name) ?? 0) + performance.now() - started);
      }
    }
    for (const [name, total] of spent) samples.get(name)?.push((total * 1000) / (blocks * block));
    await between?.();
  }
  return new Map([...samples].map(([name, list]) => [name, summarise(list)]));
}
