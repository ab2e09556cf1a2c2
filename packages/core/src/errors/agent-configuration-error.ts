import { KeelError } from '@keel/reliability';
import { hasMarker } from '@keel/reliability/internal';

const marker = Symbol.for('keel.error.AgentConfigurationError');

/** `build()` found a contradiction or a bad value in the agent's configuration. */
export class AgentConfigurationError extends KeelError {
  private readonly [marker] = true;
  override readonly name = 'AgentConfigurationError';
  readonly retryable = false;
  /** The setting at fault, e.g. `maxSteps`, `tool:search`. */
  readonly setting: string;

  constructor({ setting, message, cause }: { setting: string; message: string; cause?: unknown }) {
    super({ message: `Invalid agent configuration (${setting}): ${message}`, cause });
    this.setting = setting;
  }

  static isInstance(value: unknown): value is AgentConfigurationError {
    return hasMarker(value, marker);
  }
}
