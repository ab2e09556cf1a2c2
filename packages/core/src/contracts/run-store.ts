/** Where a durable run stands, as its journal says. */
export type RunStatus = 'running' | 'suspended' | 'complete' | 'failed';

/** A durable run as its store keeps it: whom it belongs to, where it stands, and its journal. */
export interface StoredRun {
  readonly runId: string;
  /** The stable id of the agent the run belongs to; another agent never continues it. */
  readonly agentId: string;
  /** The tenant the run belongs to, when the agent names one. */
  readonly tenant?: string;
  /** `running` until the run ends: a run that says `running` or `failed` is unfinished. */
  readonly status: RunStatus;
  /** The run's journal entries in the order they were appended, each the plain JSON it was handed. */
  readonly entries: readonly unknown[];
  /** Entries appended so far: each append raises it by the number of entries it held. */
  readonly version: number;
}

/** One append to a run's journal: its new entries (none, when only its status changes) and where the run stands after them. */
export interface RunAppend {
  readonly agentId: string;
  readonly tenant?: string;
  readonly status: RunStatus;
  /** Plain-JSON entries, appended in order after those stored. */
  readonly entries: readonly unknown[];
}

/** The right to append to a run's journal: its fence is higher than every earlier owner's. */
export interface RunLease {
  readonly runId: string;
  readonly fence: number;
}

/**
 * Where durable runs keep their journals (`Agent.create(...).durable(store)`). A run's journal
 * only grows: each step appends the entries it added, never the run's whole state again, so what a
 * run writes grows with what it did. Appends are fenced: {@link RunStore.acquire} makes the caller
 * the run's newest owner, and an append by any earlier owner (a worker that was thought dead, then
 * woke up) is refused, never merged. Claims are spent once, everywhere the store is shared (an
 * approval resumed twice runs once). `memoryRunStore()` serves one process; `redisRunStore()` in
 * `@keel/redis` serves a fleet.
 */
export interface RunStore {
  /**
   * True when processes other than this one read and write the store (Redis, a database): a
   * durable agent on it needs a `stateKey`, since every process must check the others' journals.
   */
  readonly shared: boolean;
  /** Becomes the run's newest owner; from now on, appends under any earlier lease are refused. */
  acquire(runId: string): Promise<RunLease>;
  /**
   * Becomes the run's newest owner only while its journal is still at `version` (one atomic
   * step): `undefined` otherwise, and the run's owner is unchanged. `recover` and `resume` take
   * their lease this way, so one that woke late never goes on from a journal that moved on.
   */
  acquireAt(runId: string, version: number): Promise<RunLease | undefined>;
  /**
   * Appends entries to the run's journal and sets its status, in one atomic step.
   * @returns the run's version after the append.
   * @throws {StaleRunOwnerError} when a newer owner acquired the run since `lease` was taken: nothing is written.
   * @throws {TypeError} for entries that are not JSON: nothing is written.
   */
  append(lease: RunLease, append: RunAppend): Promise<number>;
  /** The run's whole journal and where it stands, or `undefined` when the store has none. */
  load(runId: string): Promise<StoredRun | undefined>;
  /**
   * Spends a one-time claim: `true` the first time `key` is claimed, `false` on every later claim
   * (from any process sharing the store) until `ttlMs` has passed.
   */
  claim(key: string, ttlMs: number): Promise<boolean>;
  /** Gives a claim back (the work it admitted failed before it began), so it may be claimed again. */
  release(key: string): Promise<void>;
}
