import { afterEach } from 'vitest';
import type { WorkerProcess } from './worker-process';

/** The worker processes a test file starts: each one pushed here is killed (SIGKILL) after every test. */
export function startedWorkers(): WorkerProcess[] {
  const started: WorkerProcess[] = [];
  afterEach(async () => {
    for (const worker of started.splice(0)) {
      worker.child.kill('SIGKILL');
      await worker.exited;
    }
  });
  return started;
}

/** A small seeded generator (mulberry32): the kill points of a failing run can be replayed with its seed. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = Math.imul(state ^ (state >>> 15), 1 | state);
    mixed = (mixed + Math.imul(mixed ^ (mixed >>> 7), 61 | mixed)) ^ mixed;
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4_294_967_296;
  };
}
