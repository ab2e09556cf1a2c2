import type { RunStateSnapshot } from '../contracts/run-state-snapshot';

/**
 * Where a chat route keeps the states of its suspended runs until the client answers their
 * approvals, keyed by the suspension's id (which the approval ids the client holds name). Share
 * it between the server's instances (Redis, a database) when a resume may reach another one.
 * A state is signed and holds the conversation: keep it where you keep conversations.
 */
export interface SuspendedRunStore {
  /** Keeps `state` under `suspensionId` until `expiresAt` (epoch milliseconds, the state's own expiry). */
  set(suspensionId: string, state: RunStateSnapshot, expiresAt: number): unknown;
  /**
   * The state kept under `suspensionId`, or `undefined` when none is (never kept, or expired).
   * Keep it after it is read: a resume refused before anything ran (an approval not yet answered)
   * can be made again, and the agent refuses a replay of a state it resumed (`already-resumed`).
   */
  get(suspensionId: string): unknown;
}

/**
 * A {@link SuspendedRunStore} in this process's memory: for one server, tests and examples. States
 * are dropped once expired.
 */
export function memorySuspendedRuns(): SuspendedRunStore {
  const states = new Map<string, { readonly state: RunStateSnapshot; readonly expiresAt: number }>();
  return {
    set(suspensionId, state, expiresAt) {
      for (const [id, kept] of states) if (kept.expiresAt <= Date.now()) states.delete(id);
      states.set(suspensionId, { state, expiresAt });
    },
    get(suspensionId) {
      const kept = states.get(suspensionId);
      return kept && kept.expiresAt > Date.now() ? kept.state : undefined;
    },
  };
}
