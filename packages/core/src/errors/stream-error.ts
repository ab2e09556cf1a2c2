import { keelError, reduceError } from '@keel/reliability/internal';

/**
 * What went wrong with a provider stream: `incomplete`, it ended without its final part (the
 * answer is incomplete; retryable as a network fault, kind `network`); `interrupted`, a
 * pass-through stream failed after text had been shown (not retried, kind `unknown`: the reader
 * already saw part of the answer; the original failure is the cause).
 */
export type StreamProblem = 'incomplete' | 'interrupted';

/** A provider stream failed: its `problem` says how, and whether it is retried. */
export class StreamError extends keelError('StreamError') {
  readonly problem: StreamProblem;
  /** `network` for an incomplete stream (the default transient rule retries it), `unknown` for an interrupted one (no default rule does). */
  readonly errorKind: 'network' | 'unknown';

  constructor({ problem, cause }: { problem: StreamProblem; cause?: unknown }) {
    const incomplete = problem === 'incomplete';
    super({
      message: incomplete ? 'The model stream ended without a finish part' : `The stream failed after text was shown, so it is not retried: ${reduceError(cause).message}`,
      cause,
      retryable: incomplete,
    });
    this.problem = problem;
    this.errorKind = incomplete ? 'network' : 'unknown';
  }
}
