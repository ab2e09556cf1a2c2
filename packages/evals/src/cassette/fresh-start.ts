import { resolve } from 'node:path';

/** Cassette files (resolved paths) whose next write by a `record` cassette of this process starts them afresh. */
const awaitingFreshStart = new Set<string>();

/**
 * A `record` cassette was made for `path`: the next write to it by any `record` cassette of this
 * process replaces the file, and the writes after it append. So `record` cassettes made together
 * for one file (two agents of one test, say) all keep their recordings, and a later `record`
 * cassette for it starts it afresh again.
 */
export function markFreshStart(path: string): void {
  awaitingFreshStart.add(resolve(path));
}

/** Whether this write starts `path` afresh, taking that turn: true once after each {@link markFreshStart}. */
export function takeFreshStart(path: string): boolean {
  return awaitingFreshStart.delete(resolve(path));
}
