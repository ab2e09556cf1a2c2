import { StaleRunOwnerError } from '../errors/stale-run-owner-error';
import { checkAppend, checkLease, checkStoreKey } from './run-append-input';
import type { RunLease, RunStatus, RunStore, StoredRun } from '../contracts/run-store';

/** A run as a store keeps it in memory: its entries as JSON text. */
interface KeptRun {
  agentId: string;
  tenant: string | undefined;
  status: RunStatus;
  readonly entries: string[];
}

/**
 * A {@link RunStore} in this process's memory: durable across the runs and workers of one
 * process (a recovered run, an approval resumed twice), not across a restart. Checkpoints are
 * stored as JSON text, so no caller holds a reference into the store.
 */
export function memoryRunStore(): RunStore {
  const fences = new Map<string, number>();
  const runs = new Map<string, KeptRun>();
  const claims = new Map<string, number>();
  // Spent claims are forgotten once their time is up, never by count: they are swept when the
  // map has doubled since the last sweep, so a claim costs O(1) on average.
  let sweepAt = 1024;
  const name = 'memoryRunStore';
  const lease = (runId: string): RunLease => {
    const fence = (fences.get(runId) ?? 0) + 1;
    fences.set(runId, fence);
    return { runId, fence };
  };
  return {
    shared: false,
    acquire(runId) {
      try {
        return Promise.resolve(lease(checkStoreKey(runId, 'a run id', name)));
      } catch (error) {
        return Promise.reject(error);
      }
    },
    acquireAt(runId, version) {
      try {
        checkStoreKey(runId, 'a run id', name);
      } catch (error) {
        return Promise.reject(error);
      }
      if ((runs.get(runId)?.entries.length ?? 0) !== version) return Promise.resolve(undefined);
      return Promise.resolve(lease(runId));
    },
    append(given: RunLease, append) {
      try {
        const { runId, fence } = checkLease(given, name);
        const checked = checkAppend(append, name);
        if ((fences.get(runId) ?? 0) !== fence) throw new StaleRunOwnerError({ runId, fence });
        const run = runs.get(runId) ?? { agentId: checked.agentId, tenant: checked.tenant, status: checked.status, entries: [] };
        run.agentId = checked.agentId;
        run.tenant = checked.tenant;
        run.status = checked.status;
        for (const text of checked.texts) run.entries.push(text);
        runs.set(runId, run);
        return Promise.resolve(run.entries.length);
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
      const run = runs.get(runId);
      if (run === undefined) return Promise.resolve(undefined);
      const stored: StoredRun = {
        runId,
        agentId: run.agentId,
        ...(run.tenant === undefined ? {} : { tenant: run.tenant }),
        status: run.status,
        entries: run.entries.map((text) => JSON.parse(text) as unknown),
        version: run.entries.length,
      };
      return Promise.resolve(stored);
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
