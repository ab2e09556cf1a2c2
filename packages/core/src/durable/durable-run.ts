import type { RunResult } from '../agent/run-result';
import { AGENT_DEFAULTS } from '../defaults';
import { DurableRunError } from '../errors/durable-run-error';
import type { RunJournal } from '../run/state/run-journal';
import type { RunState } from '../run/state/run-state';
import type { RunCheckpoint, RunLease, RunStore } from './run-store';

/**
 * What a durable run's checkpoint holds (`RunCheckpoint.state`), plain JSON: an unfinished run's
 * state (between two steps, or mid-turn with the record of its tool calls), or a finished run's
 * result (complete, or suspended with its sealed state), which recovering it gives back.
 */
export type DurableState = { readonly run: RunState } | { readonly result: RunResult<unknown> };

/** Whom a durable run's checkpoints name: the agent, and the tenant when there is one. */
export interface RunOwner {
  readonly agentId: string;
  readonly tenant: string | undefined;
}

/**
 * The journal of one owner of a durable run over its store: each write is one checkpoint, fenced
 * by the owner's lease (a newer owner's run refuses it with `StaleRunOwnerError`). Writes go out
 * one at a time, in the order they were made.
 */
export function durableJournal(store: RunStore, lease: RunLease, owner: RunOwner): RunJournal {
  let tail: Promise<unknown> = Promise.resolve();
  let last: DurableState | undefined;
  const write = (status: RunCheckpoint['status'], state: DurableState): Promise<void> => {
    last = state;
    const checkpoint = { agentId: owner.agentId, ...(owner.tenant === undefined ? {} : { tenant: owner.tenant }), status, state };
    const written = tail.then(() => store.save(lease, checkpoint)).then(() => undefined);
    tail = written.catch(() => undefined);
    return written;
  };
  const ended = (result: RunResult<unknown>) => (result.status === 'suspended' ? 'suspended' : 'complete');
  return {
    save: (state) => write('running', { run: state }),
    finished: (result) => write(ended(result), { result }),
    // A run whose result could not be written (the store failed) ended all the same: its result is
    // written again as it is, never marked failed (a suspended state so marked could not be resumed).
    failed: () => (last === undefined ? Promise.resolve() : 'result' in last ? write(ended(last.result), last) : write('failed', last)),
  };
}

/** A new durable run's journal, and how to give its id back when the run failed before its first checkpoint. */
export interface DurableStart {
  readonly journal: RunJournal;
  /** Frees the run id for another start when the store holds no checkpoint of it (nothing of the run was kept). */
  readonly abandon: () => Promise<void>;
}

/**
 * Makes the caller the owner of a new durable run. Two starts with one id at once are told apart
 * by a claim of the id in the store (held for `resumeTakeoverMs`, well past the run's first
 * checkpoint, which refuses every later start): one runs, the other is refused before it begins.
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
    return { journal: durableJournal(store, await store.acquire(runId), owner), abandon };
  } catch (error) {
    await abandon();
    throw error;
  }
}

/**
 * Reads the checkpoint a durable run recovers from, made by this agent for this tenant.
 * @throws {DurableRunError} `not-found`, `other-agent`, `other-tenant` or `malformed`: nothing runs.
 */
export async function openCheckpoint(store: RunStore, runId: string, owner: RunOwner): Promise<DurableState> {
  const checkpoint = await store.load(runId);
  if (!checkpoint) throw new DurableRunError({ problem: 'not-found', runId, message: 'the run store has no checkpoint of this run (it was never started durably, or its store was cleared)' });
  if (checkpoint.agentId !== owner.agentId) throw new DurableRunError({ problem: 'other-agent', runId, message: 'another agent started this run; recover it with that agent' });
  if (checkpoint.tenant !== owner.tenant) {
    throw new DurableRunError({ problem: 'other-tenant', runId, message: checkpoint.tenant === undefined ? 'the run was started without a tenant; recover it without one' : 'the run was started for another tenant; recover it with that tenant' });
  }
  const state = checkpoint.state as Partial<Record<'run' | 'result', { runId?: unknown; next?: unknown }>> | null;
  const held = typeof state === 'object' && state !== null ? (state.run ?? state.result) : undefined;
  const fits = typeof held === 'object' && held !== null && held.runId === runId && (state?.result !== undefined || typeof held.next === 'object');
  if (!fits) throw new DurableRunError({ problem: 'malformed', runId, message: 'the checkpoint under this id is not one Keel wrote' });
  return checkpoint.state as DurableState;
}
