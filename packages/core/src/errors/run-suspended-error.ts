import { keelError } from '@keel/reliability/internal';
import type { SuspendedRunResult } from '../contracts/run-result';

/**
 * `runTyped()` reached a tool call that needs approval, so it has no value to return. The
 * suspended result is here: its `pendingApprovals`, and the `state` to give `agent.resume()`.
 */
export class RunSuspendedError extends keelError('RunSuspendedError', { retryable: false }) {
  /** The suspended run: `result.state` resumes it. */
  readonly result: SuspendedRunResult;

  constructor({ result }: { result: SuspendedRunResult }) {
    const ids = result.pendingApprovals.map((pending) => `${pending.toolName} (${pending.toolCallId})`).join(', ');
    super({ message: `The run suspended: ${ids} need${result.pendingApprovals.length === 1 ? 's' : ''} approval; resume it with agent.resume(error.result.state, { approve, reject })` });
    this.result = result;
  }
}
