import { keelError } from '@keel/reliability/internal';
import type { RunRecord } from '../contracts/run-result';

/** The run reached `maxSteps` without a final answer. Carries everything done so far. */
export class MaxStepsExceededError extends keelError('MaxStepsExceededError', { retryable: false }) {
  readonly maxSteps: number;
  /** The run as far as it got: messages, steps, tool calls, usage, attempts (it has no answer, so no `value`). */
  readonly partial: RunRecord;

  constructor({ maxSteps, partial }: { maxSteps: number; partial: RunRecord }) {
    super({ message: `The run reached maxSteps (${maxSteps}) without a final answer` });
    this.maxSteps = maxSteps;
    this.partial = partial;
  }
}
