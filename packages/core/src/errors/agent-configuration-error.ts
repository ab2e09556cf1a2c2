import { keelError } from '@keel/reliability/internal';

/** `build()` found a contradiction or a bad value in the agent's configuration. */
export class AgentConfigurationError extends keelError('AgentConfigurationError', { retryable: false }) {
  /** The setting at fault, e.g. `maxSteps`, `tool:search`. */
  readonly setting: string;

  constructor({ setting, message, cause }: { setting: string; message: string; cause?: unknown }) {
    super({ message: `Invalid agent configuration (${setting}): ${message}`, cause });
    this.setting = setting;
  }
}
