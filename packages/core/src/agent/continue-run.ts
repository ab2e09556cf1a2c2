import { durableJournal, openCheckpoint } from '../durable/durable-run';
import type { RunStore } from '../durable/run-store';
import { AgentConfigurationError } from '../errors/agent-configuration-error';
import { RunStateError } from '../errors/run-state-error';
import { StaleRunOwnerError } from '../errors/stale-run-owner-error';
import type { RunExtras } from '../run/run-loop';
import { checkRunOptions } from '../run/state/check-run-options';
import type { RunJournal } from '../run/state/run-journal';
import { checkDecisions, type ResumeDecisions } from '../run/state/resume-decisions';
import { claimResume, leaseSuspended } from '../run/state/resumed-suspensions';
import { openState, type RunStateSnapshot } from '../run/state/run-state-snapshot';
import type { StateSigner } from '../run/state/state-signer';
import type { RunOptions, RunResult } from './run-result';

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
  /** Runs the agent on from where `extras` says (`resume` or `recovered`), with no new input. */
  readonly start: (options: RunOptions, extras: RunExtras) => Promise<RunResult<unknown>>;
}

/** `agent.recover()`: a durable run continued from its last checkpoint, or its stored result. */
export async function recoverRun(agent: ContinuedAgent, runId: string, options: ContinuationOptions): Promise<RunResult<unknown>> {
  const store = agent.store;
  if (!store) throw new AgentConfigurationError({ setting: 'durable', message: 'recover() needs a durable agent: Agent.create(...).durable(store)' });
  const runOptions = continuationOptions(options);
  const owner = { agentId: await agent.agentId(), tenant: runOptions.tenant };
  const stored = await openCheckpoint(store, runId, owner);
  if ('result' in stored) return stored.result;
  const journal = durableJournal(store, await store.acquire(runId), owner);
  return agent.start(runOptions, { journal, recovered: stored.run });
}

/** `agent.resume()`: a suspended run continued from its signed state with the caller's decisions. */
export async function resumeRun(agent: ContinuedAgent, state: unknown, decisions: ResumeDecisions, options: ContinuationOptions): Promise<RunResult<unknown>> {
  const runOptions = continuationOptions(options);
  const opened = await openState(state, await agent.agentId(), agent.signer, runOptions.tenant);
  const decided = checkDecisions(opened.pending, opened.unknown ?? [], decisions);
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
    const journal = store && leased ? resumeJournal(durableJournal(store, leased.lease, { agentId: opened.agent, tenant: opened.tenant }), leased.suspended, () => began) : undefined;
    return await agent.start(runOptions, { resume, ...(journal ? { journal } : {}) });
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
 * A resumed run's journal: a run that fails before any decided call began writes the suspended
 * result back (not its own state marked failed), so the state it gave back resumes again.
 */
function resumeJournal(journal: RunJournal, suspended: RunResult<unknown> | undefined, began: () => boolean): RunJournal {
  return { ...journal, failed: () => (began() || suspended === undefined ? journal.failed() : journal.finished(suspended)) };
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
