import { keelError } from '@keel/core/internal';

/**
 * An option of `fileTrace()`, `startDevtools()` or the `keel-devtools` command is invalid (an
 * empty path, a port outside 0–65535, a secret that is not a string). Not retryable: fix the call.
 */
export class DevtoolsOptionsError extends keelError('DevtoolsOptionsError', { retryable: false }) {
  /** The option at fault (`path`, `port`, `secrets`...). */
  readonly option: string;

  constructor({ option, message, cause }: { option: string; message: string; cause?: unknown }) {
    super({ message: `${option}: ${message}`, cause });
    this.option = option;
  }
}
