import { keelError } from '@keel/reliability/internal';

/** Why a durable agent refused to start or recover a run. */
export type DurableRunProblem =
  /** `run()` with a `runId` the run store already holds: `agent.recover(runId)` goes on with it. */
  | 'exists'
  /** `recover()` of a run the store has no checkpoint of. */
  | 'not-found'
  /** `recover()` of a run another agent (another id) started. */
  | 'other-agent'
  /** `recover()` for another tenant than the run's. */
  | 'other-tenant'
  /** The store holds, under the run's id, something that is not a journal Keel wrote. */
  | 'malformed'
  /** The run's journal in the store was changed (an entry rewritten, removed or reordered) or written with another key. */
  | 'tampered'
  /** `recover()` of a run another process is continuing right now (its journal moved on while this one read it). */
  | 'busy';

/** A durable agent refused to start or recover a run: nothing ran. Never retryable. */
export class DurableRunError extends keelError('DurableRunError', { retryable: false }) {
  readonly problem: DurableRunProblem;
  readonly runId: string;

  constructor({ problem, runId, message, cause }: { problem: DurableRunProblem; runId: string; message: string; cause?: unknown }) {
    super({ message: `Run ${JSON.stringify(runId)}: ${message}`, cause });
    this.problem = problem;
    this.runId = runId;
  }
}
