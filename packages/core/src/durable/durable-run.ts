import { AGENT_DEFAULTS } from '../defaults';
import { DurableRunError } from '../errors/durable-run-error';
import { RunStateError } from '../errors/run-state-error';
import { verifyJournal } from '../run/journal/journal-chain';
import type { JournalEntry } from '../run/journal/journal-entry';
import type { JournalStore } from '../run/journal/journal-writer';
import type { StateSigner } from '../run/state/state-signer';
import type { RunLease, RunStore, StoredRun } from '../contracts/run-store';

/** Whom a durable run's journal names: the agent, and the tenant when there is one. */
export interface RunOwner {
  readonly agentId: string;
  readonly tenant: string | undefined;
}

/**
 * The journal of one owner of a durable run over its store: each write appends the entries it
 * holds, fenced by the owner's lease (a newer owner's run refuses it with `StaleRunOwnerError`).
 */
export function storeJournal(store: RunStore, lease: RunLease, owner: RunOwner): JournalStore {
  const named = { agentId: owner.agentId, ...(owner.tenant === undefined ? {} : { tenant: owner.tenant }) };
  return { append: (entries, status) => store.append(lease, { ...named, status, entries }).then(() => undefined) };
}

/** A new durable run's store, and how to give its id back when the run failed before its first entry. */
export interface DurableStart {
  readonly store: JournalStore;
  /** Frees the run id for another start when the store holds nothing of the run. */
  readonly abandon: () => Promise<void>;
}

/**
 * Makes the caller the owner of a new durable run. Two starts with one id at once are told apart
 * by a claim of the id in the store (held for `resumeTakeoverMs`, well past the run's first
 * entry, which refuses every later start): one runs, the other is refused before it begins.
 * @throws {DurableRunError} `exists` when the store holds the run id already, or another start of it is under way (never a silent second run).
 */
export async function beginDurableRun(store: RunStore, runId: string, owner: RunOwner): Promise<DurableStart> {
  const key = `start:${runId}`;
  const claimed = await store.claim(key, AGENT_DEFAULTS.resumeTakeoverMs);
  const existing = await store.load(runId);
  if (existing) {
    const what = existing.status === 'complete' ? 'finished' : existing.status === 'suspended' ? 'suspended (resume its state)' : `unfinished (${existing.status})`;
    throw new DurableRunError({ problem: 'exists', runId, message: `the run store holds this run already, ${what}: continue it with agent.recover(${JSON.stringify(runId)}), or start a new run with another id` });
  }
  if (!claimed) throw new DurableRunError({ problem: 'exists', runId, message: 'another run with this id is starting now: start a new run with another id, or recover this one once it is under way' });
  // A store that cannot say or cannot give the claim back keeps it: the id is free again after resumeTakeoverMs.
  const abandon = async () => {
    if ((await store.load(runId).catch(() => null)) === undefined) await store.release(key).catch(() => undefined);
  };
  try {
    return { store: storeJournal(store, await store.acquire(runId), owner), abandon };
  } catch (error) {
    await abandon();
    throw error;
  }
}

/** A durable run's journal as its store holds it, checked: this agent's, this tenant's, every entry chained with the agent's key. */
export interface OpenedJournal {
  readonly entries: readonly JournalEntry[];
  readonly stored: StoredRun;
}

/**
 * Reads the journal a durable run goes on from, made by this agent for this tenant, and checks
 * every entry's chain before anything of it is trusted.
 * @throws {DurableRunError} `not-found`, `other-agent`, `other-tenant`, `malformed` or `tampered`: nothing runs.
 */
export async function openJournal(store: RunStore, runId: string, owner: RunOwner, signer: StateSigner): Promise<OpenedJournal> {
  const stored = await store.load(runId);
  if (!stored) throw new DurableRunError({ problem: 'not-found', runId, message: 'the run store has no journal of this run (it was never started durably, or its store was cleared)' });
  if (stored.agentId !== owner.agentId) throw new DurableRunError({ problem: 'other-agent', runId, message: 'another agent started this run; recover it with that agent' });
  if (stored.tenant !== owner.tenant) {
    throw new DurableRunError({ problem: 'other-tenant', runId, message: stored.tenant === undefined ? 'the run was started without a tenant; recover it without one' : 'the run was started for another tenant; recover it with that tenant' });
  }
  try {
    return { entries: await verifyJournal(signer, runId, stored.entries), stored };
  } catch (error) {
    if (!RunStateError.isInstance(error)) throw error;
    const problem = error.problem === 'tampered' ? 'tampered' : 'malformed';
    const message = problem === 'tampered' ? `the run's journal in the store was changed or written with another key, so it is not run (${error.message})` : `the store holds under this id what is not a journal Keel wrote (${error.message})`;
    throw new DurableRunError({ problem, runId, message, cause: error });
  }
}
