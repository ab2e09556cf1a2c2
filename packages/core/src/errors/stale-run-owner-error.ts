import { keelError } from '@keel/reliability/internal';

/**
 * A durable run's checkpoint was refused: another owner acquired the run since this one did (a
 * worker taken for dead went on). Nothing was written; this owner must stop. Never retryable.
 */
export class StaleRunOwnerError extends keelError('StaleRunOwnerError', { retryable: false }) {
  readonly runId: string;
  /** The fence this owner held. */
  readonly fence: number;

  constructor({ runId, fence, cause }: { runId: string; fence: number; cause?: unknown }) {
    super({ message: `run ${JSON.stringify(runId)} has a newer owner than this one (fence ${fence}): its checkpoint was not written`, cause });
    this.runId = runId;
    this.fence = fence;
  }
}
