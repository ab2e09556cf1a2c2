import { AGENT_DEFAULTS } from '../../defaults';
import type { RunLease, RunStore, StoredRun } from '../../contracts/run-store';
import type { JournalHead } from '../../contracts/journal-head';
import { RunStateError } from '../../errors/run-state-error';
import type { RunStateSnapshot } from '../../contracts/run-state-snapshot';

/** Suspension ids resumed in this process, each with the time its state expires: shared by every agent, so a state resumes once per process. */
const resumed = new Map<string, number>();

/** Swept of expired ids when it has doubled since the last sweep, so a claim costs O(1) on average. */
let sweepAt = 1024;

/**
 * Claims a suspension for one resume: true the first time in this process, false afterwards (a
 * replay, or a second resume running at the same time) until the state expires, when it can no
 * longer be resumed anyway: spent ids are forgotten by time, never by count. Synchronous, so of
 * two concurrent resumes exactly one claims it. Suspension ids are random, so agents never claim
 * each other's.
 */
export function claimSuspension(suspensionId: string, expiresAt: number, now = Date.now()): boolean {
  const until = resumed.get(suspensionId);
  if (until !== undefined && until >= now) return false;
  if (resumed.size >= sweepAt) {
    for (const [id, expiry] of resumed) if (expiry < now) resumed.delete(id);
    sweepAt = Math.max(1024, resumed.size * 2);
  }
  resumed.set(suspensionId, expiresAt);
  return true;
}

/** Gives a claim back: the resume failed before any approved call began, so the state may be resumed again. */
export function releaseSuspension(suspensionId: string): void {
  resumed.delete(suspensionId);
}

/** Whether the run's journal ends with this suspension: nothing ran on from it. */
function holdsSuspension(stored: StoredRun, state: Pick<RunStateSnapshot, 'suspensionId'>): boolean {
  if (stored.status !== 'suspended') return false;
  const last = stored.entries.at(-1) as { readonly type?: unknown; readonly suspension?: { readonly suspensionId?: unknown } } | null | undefined;
  return last?.type === 'suspension' && last.suspension?.suspensionId === state.suspensionId;
}

/**
 * Whether the run's journal in `store` still ends with this suspension: nothing ran on from it (a
 * resume that did appended entries of its own). `undefined` when the store holds no journal of
 * the run (the state was made before the agent was durable).
 */
export async function stillSuspended(store: RunStore, state: Pick<RunStateSnapshot, 'runId' | 'suspensionId'>): Promise<boolean | undefined> {
  const checkpoint = await store.load(state.runId);
  return checkpoint === undefined ? undefined : holdsSuspension(checkpoint, state);
}

/** A resume's lease, and where the run's journal stood when it was taken (none for a state made before the agent was durable). */
export interface SuspendedLease {
  readonly lease: RunLease;
  readonly head: JournalHead | undefined;
}

/**
 * The lease of a resume that holds its claim: taken only while the run's journal still ends with
 * this suspension (atomically, with `acquireAt`), so a resume that slept since its claim never
 * fences out a resume that took over and is running.
 * @returns the lease, or `undefined` when the run went on from the suspension (the resume is refused).
 */
export async function leaseSuspended(store: RunStore, state: Pick<RunStateSnapshot, 'runId' | 'suspensionId'>): Promise<SuspendedLease | undefined> {
  const stored = await store.load(state.runId);
  if (stored !== undefined && !holdsSuspension(stored, state)) return undefined;
  const lease = await store.acquireAt(state.runId, stored?.version ?? 0);
  if (!lease) return undefined;
  const last = stored?.entries.at(-1) as { readonly mac?: unknown } | undefined;
  return { lease, head: stored && typeof last?.mac === 'string' ? { seq: stored.version, mac: last.mac } : undefined };
}

/**
 * Claims a suspended state for one resume: in this process first (synchronous, so of two
 * concurrent resumes exactly one goes on), then in the run store when the agent is durable, so a
 * resume in another process, another day, is refused too. The run's checkpoint has the last word
 * (see {@link stillSuspended}): a resume goes on only while it is still this suspension, so a claim the
 * store holds already is taken over when the resume that claimed it ended before its first
 * checkpoint (its process was killed: nothing of it ran; it is given `resumeTakeoverMs` to write
 * one first), and a fresh claim is refused once a
 * resume ran on. The resume checks it again once it holds the run's lease (a resume paused
 * between its claim and its lease may wake after another took over and finished); one that is
 * still alive when another takes over is fenced by that lease: its first checkpoint is refused
 * and it stops before any call.
 * @throws {RunStateError} `already-resumed` when either was claimed before and the run went on.
 */
export async function claimResume(state: Pick<RunStateSnapshot, 'runId' | 'suspensionId' | 'expiresAt'>, store: RunStore | undefined): Promise<{ release: () => Promise<void> }> {
  const { suspensionId, expiresAt } = state;
  const refused = (where: string) => new RunStateError({ problem: 'already-resumed', message: `suspension ${suspensionId} was resumed already ${where} (a state is resumed once)` });
  if (!claimSuspension(suspensionId, expiresAt)) throw refused('in this process');
  if (!store) return { release: () => Promise.resolve(releaseSuspension(suspensionId)) };
  const key = `suspension:${suspensionId}`;
  let claimed: boolean;
  try {
    const fresh = await store.claim(key, Math.max(1, expiresAt - Date.now()));
    // Without a checkpoint of the run, the store's claim decides alone.
    claimed = (await stillSuspended(store, state)) ?? fresh;
    // A claim another holds is taken over only if its resume wrote no checkpoint in the time a live one takes.
    if (claimed && !fresh) {
      await new Promise<void>((resolve) => setTimeout(() => resolve(), AGENT_DEFAULTS.resumeTakeoverMs));
      claimed = (await stillSuspended(store, state)) === true;
    }
  } catch (error) {
    releaseSuspension(suspensionId);
    throw error;
  }
  if (!claimed) {
    releaseSuspension(suspensionId);
    throw refused(`(the run store says so; if the process that resumed it died, agent.recover(${JSON.stringify(state.runId)}) continues the run)`);
  }
  return {
    release: async () => {
      releaseSuspension(suspensionId);
      // A store that cannot give the claim back leaves the state spent: never a second run.
      await store.release(key).catch(() => undefined);
    },
  };
}
