import type { ModelProviderV1 } from '@keel/provider';
import { heldModel } from '../held-model';
import { type Census, countSnapshot, writeSnapshot } from './heap-census';

/** A contender's run on the given model (every contender answers the same two turns). */
export type StartOn = (model: ModelProviderV1) => (input: string) => Promise<unknown>;

/** What `runs` runs hold while all of them wait for their second model call. */
export interface HeldHeap {
  readonly runs: number;
  /** Heap used beyond the idle agent's, per run in flight, in bytes (GC forced before each reading). */
  readonly bytesPerRun: number;
  /** Heap snapshots' nodes idle and in flight, when asked for (`census`). */
  readonly census: { readonly idle: Census; readonly inFlight: Census } | undefined;
}

const INPUT = 'Refund order A-1182';

/**
 * Starts `runs` runs at once on a held model, waits until each one waits for its second model call
 * (the tool has run: the state holds a turn, its result and a recorded attempt), reads the heap
 * with GC forced, then releases them. With `census` (script URLs, see `scriptUrls`), a heap
 * snapshot is counted idle and in flight too. `undefined` without `--expose-gc`.
 */
export async function measureHeldHeap(start: StartOn, runs: number, options: { readonly census?: ReadonlyMap<number, string> } = {}): Promise<HeldHeap | undefined> {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) return undefined;
  const model = heldModel();
  const run = start(model);
  for (let index = 0; index < 200; index++) await run(INPUT);
  const heap = () => {
    gc();
    gc();
    return process.memoryUsage().heapUsed;
  };
  // Each snapshot is taken before its reading: what the snapshot leaves behind is in both.
  const idle = options.census ? writeSnapshot() : undefined;
  const before = heap();
  model.hold();
  const all = Promise.all(Array.from({ length: runs }, () => run(INPUT)));
  while (model.held() < runs) await new Promise((resolve) => setImmediate(resolve));
  const inFlight = options.census ? writeSnapshot() : undefined;
  const during = heap();
  model.release();
  await all;
  const urls = options.census;
  return { runs, bytesPerRun: (during - before) / runs, census: urls && idle && inFlight ? { idle: countSnapshot(idle, urls), inFlight: countSnapshot(inFlight, urls) } : undefined };
}
