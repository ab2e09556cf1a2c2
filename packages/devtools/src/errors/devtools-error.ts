import { keelError } from '@keel/core/internal';

/**
 * What went wrong in the devtools: `options`, an option of `fileTrace()`, `startDevtools()` or
 * the `keel-devtools` command is invalid (an empty path, a port outside 0–65535, a secret that is
 * not a string; not retryable: fix the call); `trace-write`, events could not be written to the
 * trace file (a missing permission, a full disk, a path that is a directory), or were dropped
 * because writing fell too far behind (retryable: the next write may succeed).
 */
export type DevtoolsProblem = 'options' | 'trace-write';

/** Constructor fields of {@link DevtoolsError}, by problem. */
export type DevtoolsErrorOptions = { readonly message: string; readonly cause?: unknown } & (
  | { readonly problem: 'options'; readonly option: string }
  | { readonly problem: 'trace-write'; readonly path: string; readonly lostEvents: number }
);

/**
 * A devtools call failed, as its `problem` says. A `trace-write` failure leaves the run unchanged:
 * it is reported as the agent's `listener.error` event, with this error's name and message.
 */
export class DevtoolsError extends keelError('DevtoolsError') {
  readonly problem: DevtoolsProblem;
  /** The option at fault (`options`: `path`, `port`, `secrets`...). */
  readonly option?: string;
  /** The trace file (`trace-write`). */
  readonly path?: string;
  /** Events lost (`trace-write`): the batch that failed, or the events dropped while too many were waiting. */
  readonly lostEvents?: number;

  constructor(options: DevtoolsErrorOptions) {
    const { problem, message, cause } = options;
    if (problem === 'options') {
      super({ message: `${options.option}: ${message}`, cause, retryable: false });
      this.option = options.option;
    } else {
      super({ message, cause, retryable: true });
      this.path = options.path;
      this.lostEvents = options.lostEvents;
    }
    this.problem = problem;
  }
}
