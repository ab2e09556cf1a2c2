/** Where a durable run stands, as its latest checkpoint says. */
export type CheckpointStatus = 'running' | 'suspended' | 'complete' | 'failed';

/** One checkpoint of a durable run: what a store keeps, and what recovery starts from. */
export interface RunCheckpoint {
  readonly runId: string;
  /** The stable id of the agent the run belongs to; another agent never continues it. */
  readonly agentId: string;
  /** The tenant the run belongs to, when the agent names one. */
  readonly tenant?: string;
  /** `running` until the run ends: a run whose latest checkpoint says `running` is unfinished. */
  readonly status: CheckpointStatus;
  /** The run's state between two steps, or around a tool call: plain JSON. */
  readonly state: unknown;
  /** Checkpoints written so far for the run: each write is one higher. */
  readonly version: number;
}

/** The right to write a run's checkpoints: its fence is higher than every earlier owner's. */
export interface RunLease {
  readonly runId: string;
  readonly fence: number;
}

/**
 * Where durable runs keep their checkpoints (`Agent.create(...).durable(store)`). Writes are
 * fenced: {@link RunStore.acquire} makes the caller the run's newest owner, and a write by any
 * earlier owner (a worker that was thought dead, then woke up) is refused, never merged. Claims
 * are spent once, everywhere the store is shared (an approval resumed twice runs once).
 * `memoryRunStore()` serves one process; `redisRunStore()` in `@keel/redis` serves a fleet.
 */
export interface RunStore {
  /** Becomes the run's newest owner; from now on, writes under any earlier lease are refused. */
  acquire(runId: string): Promise<RunLease>;
  /**
   * Becomes the run's newest owner only while its latest checkpoint is still `version` (one
   * atomic step): `undefined` otherwise, and the run's owner is unchanged. A resume takes its
   * lease this way, so one that woke late never fences out the resume that went on meanwhile.
   * Optional: without it, a resume acquires and then checks, which leaves that window open.
   */
  acquireAt?(runId: string, version: number): Promise<RunLease | undefined>;
  /**
   * Writes the run's checkpoint (its version is the store's to count).
   * @throws {StaleRunOwnerError} when a newer owner acquired the run since `lease` was taken: nothing is written.
   */
  save(lease: RunLease, checkpoint: Omit<RunCheckpoint, 'version' | 'runId'>): Promise<RunCheckpoint>;
  /** The run's latest checkpoint, or `undefined` when the store has none. */
  load(runId: string): Promise<RunCheckpoint | undefined>;
  /**
   * Spends a one-time claim: `true` the first time `key` is claimed, `false` on every later claim
   * (from any process sharing the store) until `ttlMs` has passed.
   */
  claim(key: string, ttlMs: number): Promise<boolean>;
  /** Gives a claim back (the work it admitted failed before it began), so it may be claimed again. */
  release(key: string): Promise<void>;
}
