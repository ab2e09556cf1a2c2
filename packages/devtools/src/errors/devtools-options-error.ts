const marker = Symbol.for('keel.error.DevtoolsOptionsError');

/**
 * An option of `fileTrace()`, `startDevtools()` or the `keel-devtools` command is invalid (an
 * empty path, a port outside 0–65535, a secret that is not a string). Not retryable: fix the call.
 */
export class DevtoolsOptionsError extends Error {
  private readonly [marker] = true;
  override readonly name = 'DevtoolsOptionsError';
  readonly retryable = false;
  /** The option at fault (`path`, `port`, `secrets`...). */
  readonly option: string;

  constructor({ option, message, cause }: { option: string; message: string; cause?: unknown }) {
    super(`${option}: ${message}`, cause === undefined ? undefined : { cause });
    this.option = option;
  }

  static isInstance(value: unknown): value is DevtoolsOptionsError {
    return typeof value === 'object' && value !== null && (value as { [marker]?: unknown })[marker] === true;
  }
}
