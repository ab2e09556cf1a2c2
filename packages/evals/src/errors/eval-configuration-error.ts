import { KeelError, hasMarker } from '@keel/core/internal';

const marker = Symbol.for('keel.error.EvalConfigurationError');

/**
 * An eval cannot run as given: bad `evaluate()` options (no agent, a dataset that is not an array
 * of `{ input }`, a bad concurrency or scorer), an eval file that exports no eval, or a baseline
 * report that is not one. Nothing ran.
 */
export class EvalConfigurationError extends KeelError {
  private readonly [marker] = true;
  override readonly name = 'EvalConfigurationError';
  readonly retryable = false;

  constructor({ message, cause }: { message: string; cause?: unknown }) {
    super({ message, cause });
  }

  static isInstance(value: unknown): value is EvalConfigurationError {
    return hasMarker(value, marker);
  }
}
