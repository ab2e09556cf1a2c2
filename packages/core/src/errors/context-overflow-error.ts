import type { AttemptRecord } from '@keel/reliability';
import { keelError } from '@keel/reliability/internal';

/** Constructor fields of {@link ContextOverflowError}. */
export interface ContextOverflowErrorOptions {
  /** The estimated tokens of the last request the vendor refused (on the high side). */
  readonly estimatedTokens: number;
  /** The window the run planned for, when known. */
  readonly contextWindow: number | undefined;
  /** Compactions the run made, the one after the first refusal included. */
  readonly compactions: number;
  /** Every model call of the run, the refused ones included. */
  readonly attempts: readonly AttemptRecord[];
  /** The last refusal. */
  readonly cause?: unknown;
}

/**
 * The vendor refused a request as too long for the model's context window, and compacting the
 * context and retrying once did not make it fit (or nothing was left to compact). Not retryable.
 */
export class ContextOverflowError extends keelError('ContextOverflowError', { retryable: false, errorKind: 'context-overflow' }) {
  readonly estimatedTokens: number;
  readonly contextWindow: number | undefined;
  readonly compactions: number;
  readonly attempts: readonly AttemptRecord[];

  constructor(options: ContextOverflowErrorOptions) {
    const window = options.contextWindow === undefined ? "the model's context window" : `the ${options.contextWindow}-token context window`;
    super({
      message: `the request (about ${options.estimatedTokens} tokens, estimated) does not fit ${window} after ${options.compactions} compaction${options.compactions === 1 ? '' : 's'} (context-overflow)`,
      ...(options.cause === undefined ? {} : { cause: options.cause }),
    });
    this.estimatedTokens = options.estimatedTokens;
    this.contextWindow = options.contextWindow;
    this.compactions = options.compactions;
    this.attempts = options.attempts;
  }
}
