import { StaleRunOwnerError } from '../errors/stale-run-owner-error';
import type { RunCheckpoint, RunLease, RunStore } from './run-store';

/** Checks a run id or claim key: a non-empty string. */
export function checkStoreKey(value: unknown, what: string, store: string): string {
  if (typeof value !== 'string' || value.length === 0) throw new TypeError(`${store}: ${what} must be a non-empty string, got ${value === '' ? 'an empty string' : typeof value}`);
  return value;
}

/** Checks a checkpoint's state: JSON, so a store in another process reads the same value. */
export function checkpointJson(checkpoint: Omit<RunCheckpoint, 'version' | 'runId'>, store: string): string {
  try {
    return JSON.stringify(checkpoint);
  } catch (error) {
    throw new TypeError(`${store}: a checkpoint must be JSON (${error instanceof Error ? error.message : String(error)})`, { cause: error });
  }
}

/**
 * A {@link RunStore} in this process's memory: durable across the runs and workers of one
 * process (a recovered run, an approval resumed twice), not across a restart. Checkpoints are
 * stored as JSON text, so no caller holds a reference into the store.
 */
export function memoryRunStore(): RunStore {
  const fences = new Map<string, number>();
  const checkpoints = new Map<string, string>();
  const versions = new Map<string, number>();
  const claims = new Map<string, number>();
  // Spent claims are forgotten once their time is up, never by count: they are swept when the
  // map has doubled since the last sweep, so a claim costs O(1) on average.
  let sweepAt = 1024;
  const name = 'memoryRunStore';
  return {
    acquire(runId) {
      try {
        checkStoreKey(runId, 'a run id', name);
      } catch (error) {
        return Promise.reject(error);
      }
      const fence = (fences.get(runId) ?? 0) + 1;
      fences.set(runId, fence);
      return Promise.resolve({ runId, fence });
    },
    acquireAt(runId, version) {
      try {
        checkStoreKey(runId, 'a run id', name);
      } catch (error) {
        return Promise.reject(error);
      }
      if ((versions.get(runId) ?? 0) !== version) return Promise.resolve(undefined);
      const fence = (fences.get(runId) ?? 0) + 1;
      fences.set(runId, fence);
      return Promise.resolve({ runId, fence });
    },
    save(lease: RunLease, checkpoint) {
      try {
        const runId = checkStoreKey(lease?.runId, 'a lease run id', name);
        if ((fences.get(runId) ?? 0) !== lease.fence) throw new StaleRunOwnerError({ runId, fence: lease.fence });
        const version = (versions.get(runId) ?? 0) + 1;
        const text = checkpointJson(checkpoint, name);
        // The JSON text as written, with the run id and version added: no copy is shared with the caller.
        const stored = `${text.slice(0, -1)}${text.length > 2 ? ',' : ''}"runId":${JSON.stringify(runId)},"version":${version}}`;
        checkpoints.set(runId, stored);
        versions.set(runId, version);
        // A copy of what was written, read only if the caller looks at it (a run's journal never does).
        let copy: RunCheckpoint | undefined;
        const read = () => (copy ??= JSON.parse(stored) as RunCheckpoint);
        const written = { runId, version, get agentId() { return read().agentId; }, get tenant() { return read().tenant; }, get status() { return read().status; }, get state() { return read().state; } };
        return Promise.resolve(written as RunCheckpoint);
      } catch (error) {
        return Promise.reject(error);
      }
    },
    load(runId) {
      try {
        checkStoreKey(runId, 'a run id', name);
      } catch (error) {
        return Promise.reject(error);
      }
      const text = checkpoints.get(runId);
      return Promise.resolve(text === undefined ? undefined : (JSON.parse(text) as RunCheckpoint));
    },
    claim(key, ttlMs) {
      try {
        checkStoreKey(key, 'a claim key', name);
      } catch (error) {
        return Promise.reject(error);
      }
      const now = Date.now();
      const until = claims.get(key);
      if (until !== undefined && until > now) return Promise.resolve(false);
      if (claims.size >= sweepAt) {
        for (const [spent, expiry] of claims) if (expiry <= now) claims.delete(spent);
        sweepAt = Math.max(1024, claims.size * 2);
      }
      claims.set(key, now + Math.max(0, ttlMs));
      return Promise.resolve(true);
    },
    release(key) {
      claims.delete(key);
      return Promise.resolve();
    },
  };
}
