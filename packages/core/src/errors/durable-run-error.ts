import { KeelError } from '@keel/reliability';
import { hasMarker } from '@keel/reliability/internal';

const marker = Symbol.for('keel.error.DurableRunError');

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
export class DurableRunError extends KeelError {
  private readonly [marker] = true;
  override readonly name = 'DurableRunError';
  readonly retryable = false;
  readonly problem: DurableRunProblem;
  readonly runId: string;

  constructor({ problem, runId, message, cause }: { problem: DurableRunProblem; runId: string; message: string; cause?: unknown }) {
    super({ message: `Run ${JSON.stringify(runId)}: ${message}`, ...(cause === undefined ? {} : { cause }) });
    this.problem = problem;
    this.runId = runId;
  }

  static isInstance(value: unknown): value is DurableRunError {
    return hasMarker(value, marker);
  }
}
