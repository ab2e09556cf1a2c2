import type { AttemptRecord } from '@keel/reliability';
import { openJournal, storeJournal } from '../durable/durable-run';
import { DurableRunError } from '../errors/durable-run-error';
import { foldJournal } from '../run/journal/fold-journal';
import { verifyJournal } from '../run/journal/journal-chain';
import { journalResult } from '../run/journal/journal-result';
import type { RunUsage } from '../usage/usage-ledger';
import type { RunStore } from '../contracts/run-store';
import { AgentConfigurationError } from '../errors/agent-configuration-error';
import { RunStateError } from '../errors/run-state-error';
import { StaleRunOwnerError } from '../errors/stale-run-owner-error';
import type { RunExtras } from '../run/run-loop';
import type { RunGate } from '../run/journal/run-step';
import { checkRunOptions } from '../run/state/check-run-options';
import { checkDecisions, type ResumeDecisions } from '../run/state/resume-decisions';
import { claimResume, leaseSuspended } from '../run/state/resumed-suspensions';
import type { RunStateSnapshot } from '../contracts/run-state-snapshot';
import { openState } from '../run/state/run-state-snapshot';
import type { StateSigner } from '../run/state/state-signer';
import type { CallDecision } from '../contracts/run-state';
import type { PendingApproval } from '../tools/pending-approval';
import type { RunOptions, RunResult } from '../contracts/run-result';

/** The options a continuation (`resume`, `recover`) takes from its caller. */
export type ContinuationOptions = Pick<RunOptions, 'signal' | 'timeoutMs' | 'tenant'>;

/** What continuing a run needs of its agent. */
export interface ContinuedAgent {
  /** The agent's run store, when it is durable. */
  readonly store: RunStore | undefined;
  /** The id naming the agent in its states and checkpoints. */
  readonly agentId: () => Promise<string>;
  /** Checks the signature of the states the agent suspended with. */
  readonly signer: StateSigner;
  /** Runs the agent on from where `extras` says (`resume` or `continued`), with no new input. */
  readonly start: (options: RunOptions, extras: RunExtras) => Promise<RunResult<unknown>>;
  /** The usage a journal's model calls add up to, priced as the agent prices them. */
  readonly usageOf: (attempts: readonly AttemptRecord[]) => RunUsage;
}

/** How many times `recover()` reads a journal again that moved on between its read and its lease. */
const RECOVER_READS = 3;

/**
 * `agent.recover()`: a durable run continued from its journal, or its result when the journal
 * says it ended. The lease is taken on the version read (`acquireAt`): a recover that slept between
 * its read and its lease, while another continued or finished the run, reads the journal again and
 * never runs from a stale one.
 */
export async function recoverRun(agent: ContinuedAgent, runId: string, options: ContinuationOptions): Promise<RunResult<unknown>> {
  const store = agent.store;
  if (!store) throw new AgentConfigurationError({ setting: 'durable', message: 'recover() needs a durable agent: Agent.create(...).durable(store)' });
  const runOptions = continuationOptions(options);
  const owner = { agentId: await agent.agentId(), tenant: runOptions.tenant };
  for (let read = 1; ; read++) {
    const { entries, stored } = await openJournal(store, runId, owner, agent.signer);
    const folded = foldJournal(entries, agent.usageOf);
    // The tenant the journal's own (chained) input names, not only the store's label of it.
    if (folded.state.tenant !== owner.tenant) throw new DurableRunError({ problem: 'tampered', runId, message: "the journal's input names another tenant than the store says: it was changed, so it is not run" });
    const result = await journalResult(folded, agent.signer);
    if (result) return result;
    const lease = await store.acquireAt(runId, stored.version);
    if (lease) return agent.start(runOptions, { store: storeJournal(store, lease, owner), continued: { state: folded.state, head: folded.head } });
    if (read === RECOVER_READS) throw new DurableRunError({ problem: 'busy', runId, message: 'another process is continuing this run now (its journal moved on while it was read); recover it again once that process stopped' });
  }
}

/** `agent.resume()`: a suspended run continued from its signed state with the caller's decisions. */
export async function resumeSuspendedRun(agent: ContinuedAgent, state: unknown, decisions: ResumeDecisions, options: ContinuationOptions): Promise<RunResult<unknown>> {
  const runOptions = continuationOptions(options);
  const opened = await openState(state, await agent.agentId(), agent.signer, runOptions.tenant);
  const decided = withNested(checkDecisions(opened.pending, opened.unknown ?? [], decisions), opened.pending);
  // Of two resumes of one state (a replay, or two at once), one runs: in this process, and with
  // a run store wherever the store is shared; spent states are remembered until they expire.
  const claim = await claimResume(opened, agent.store);
  let began = false;
  const resume = { state: opened, decisions: decided, began: () => void (began = true) };
  const store = agent.store;
  try {
    // A durable agent's resumed run is durable too: this process becomes its owner, while the run
    // is still this suspension (a resume that slept since its claim may find it gone on).
    const leased = store ? await leaseSuspended(store, opened) : undefined;
    if (store && !leased) throw alreadyResumed(opened);
    if (!store || !leased) return await agent.start(runOptions, { resume });
    const journal = storeJournal(store, leased.lease, { agentId: opened.agent, tenant: opened.tenant });
    return await agent.start(runOptions, { resume: leased.head ? { ...resume, head: leased.head } : resume, store: journal });
  } catch (error) {
    // Another process took the resume over before this one's first checkpoint (see claimResume): it runs, this one is refused.
    if (!began && StaleRunOwnerError.isInstance(error)) throw alreadyResumed(opened, error);
    if (RunStateError.isInstance(error) && error.problem === 'already-resumed') throw error;
    // Nothing ran yet (memory could not be loaded, an abort came first): the state may be resumed again.
    if (!began) await claim.release();
    throw error;
  }
}

/**
 * The decisions with, on each call that runs an agent suspended inside it (`PendingApproval.nested`),
 * that agent's state: the decided call resumes the agent with the decision (see `agentAsTool`).
 */
function withNested(decisions: ReadonlyMap<string, CallDecision>, pending: readonly PendingApproval[]): ReadonlyMap<string, CallDecision> {
  if (!pending.some((call) => call.nested !== undefined)) return decisions;
  const carried = new Map(decisions);
  for (const call of pending) {
    const decision = carried.get(call.toolCallId);
    if (call.nested !== undefined && (decision?.type === 'approved' || decision?.type === 'rejected')) carried.set(call.toolCallId, { ...decision, nested: call.nested.state });
  }
  return carried;
}

/** Another process resumed the state first: it runs (or, if it died, `recover` goes on with it); this one is refused before any call. */
const alreadyResumed = ({ suspensionId, runId }: Pick<RunStateSnapshot, 'suspensionId' | 'runId'>, cause?: unknown) =>
  new RunStateError({
    problem: 'already-resumed',
    message: `suspension ${suspensionId} was resumed already by another process (a state is resumed once; if that process died, agent.recover(${JSON.stringify(runId)}) continues the run)`,
    ...(cause === undefined ? {} : { cause }),
  });

/** The options a continuation takes from its caller, checked. */
function continuationOptions(options: ContinuationOptions | undefined): RunOptions {
  return checkRunOptions({ ...(options?.signal === undefined ? {} : { signal: options.signal }), ...(options?.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }), ...(options?.tenant === undefined ? {} : { tenant: options.tenant }) });
}

/**
 * `agent.iter({ journal })`: a run continued from a journal its caller kept (the entries an
 * earlier `iter()` gave), checked entry by entry with the agent's key first; its result when the
 * journal says the run ended. The continued run's entries follow the journal's.
 * @throws {RunStateError} `malformed`, `tampered` or `other-tenant`: nothing runs.
 */
export async function continueJournal(agent: ContinuedAgent, journal: readonly unknown[], options: RunOptions, gate: RunGate): Promise<RunResult<unknown>> {
  if (agent.store) throw new AgentConfigurationError({ setting: 'durable', message: 'a durable agent continues its runs from its run store: agent.recover(runId)' });
  const folded = foldJournal(await verifyJournal(agent.signer, undefined, journal), agent.usageOf);
  if (folded.state.tenant !== options.tenant) {
    throw new RunStateError({ problem: 'other-tenant', message: folded.state.tenant === undefined ? 'the journal was made without a tenant; continue it without one' : 'the journal was made for another tenant; continue it with the tenant it was made for' });
  }
  return (await journalResult(folded, agent.signer)) ?? agent.start(options, { continued: { state: folded.state, head: folded.head }, gate });
}
