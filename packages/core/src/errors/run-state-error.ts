import { keelError } from '@keel/reliability/internal';

/** Why `agent.resume()` refused a state or its decisions, or `recover()`/`iter()` a journal. */
export type RunStateProblem =
  /** Not a run state: not an object of the expected shape, or not JSON. */
  | 'malformed'
  /** A state of a format version this Keel does not read. */
  | 'unsupported-version'
  /** A state another agent made (another id, other tools or output schema). */
  | 'other-agent'
  /** A state made for another tenant (or for none, resumed with one). */
  | 'other-tenant'
  /** A state past its signed expiry (`stateTtlMs`). */
  | 'expired'
  /** The signature does not match: the state was changed, or signed with another key. */
  | 'bad-signature'
  /** This agent already resumed the state (a replay, or a second concurrent resume). */
  | 'already-resumed'
  /** A journal whose entries were changed, removed, reordered or written with another key (see `verifyJournal`). */
  | 'tampered'
  /** The decisions do not fit the pending calls (an unknown id, a call decided twice, one left undecided). */
  | 'bad-decisions';

/** `agent.resume()`, `recover()` or `iter()` refused the state, the journal or the decisions: nothing ran. Never retryable. */
export class RunStateError extends keelError('RunStateError', { retryable: false }) {
  readonly problem: RunStateProblem;

  constructor({ problem, message, cause }: { problem: RunStateProblem; message: string; cause?: unknown }) {
    super({ message: `Cannot resume the run: ${message}`, cause });
    this.problem = problem;
  }
}
