import type { ErrorKind } from '../error-kind';
import type { AttemptRecord } from '../gate/attempt-record';
import { KeelError, keelError, reduceError } from './keel-error';
import type { ValidationFailure } from './validation-failure';

/** Where the gate decided to stop. */
export type FailFastPhase = 'pre-check' | 'post-decide' | 'loop-cap' | 'rule-error';

/** Constructor fields of {@link ReliabilityFailFastError}: its own fields, and the failure. */
type ReliabilityFailFastErrorOptions = Pick<ReliabilityFailFastError, 'kind' | 'label' | 'phase' | 'attempt' | 'errorKind' | 'attempts' | 'lastValidationFailure'> & {
  /**
   * The underlying failure. A Keel error (a provider's `ProviderError`, a
   * `ValidationFailure`) is kept as it is, so `instanceof` and `isInstance` work on it: each builds
   * its own fields without secrets. Any other value is reduced to `{ name, message }`.
   */
  readonly cause?: unknown;
};

/**
 * What the error says. A failure no rule retries (an authentication error, a bad request) leads
 * with the failure itself, then the gate's story; a loop of actions says what looped; any other
 * stop leads with the rule that stopped.
 */
function messageOf(options: ReliabilityFailFastErrorOptions, cause: string | undefined): string {
  const rule = `${options.kind}${options.label ? `: ${options.label}` : ''}`;
  if (options.errorKind === 'action-loop') return `The run was stopped in a loop of actions (${rule}) on attempt ${options.attempt}`;
  if (options.kind === 'unhandled-failure' && cause !== undefined && options.errorKind !== 'ok') {
    return `${cause} — the reliability gate stopped on attempt ${options.attempt}: no rule retries a failure of kind ${options.errorKind}`;
  }
  return `Reliability gate stopped (${rule}) on attempt ${options.attempt}${options.errorKind === 'ok' ? ', on a valid answer' : `, last failure ${options.errorKind}`}` + (cause === undefined ? '' : ` — ${cause}`);
}

/** The gate stopped: a rule said fail-fast, a budget ran out, or a rule itself threw. Not retryable. */
export class ReliabilityFailFastError extends keelError('ReliabilityFailFastError', { retryable: false }) {
  /** The rule's kind, e.g. `schema-stuck-loop`, `schema-retry-exhausted`, `rule-error`. */
  readonly kind: string;
  readonly label?: string;
  readonly phase: FailFastPhase;
  /** The attempt (1-based) on which the gate stopped. */
  readonly attempt: number;
  /** What the last attempt's failure was. */
  readonly errorKind: ErrorKind;
  /** Every model call made (by the whole run, inside an agent), failed ones included. */
  readonly attempts: readonly AttemptRecord[];
  /** The gate run's latest validation failure, when it had one (what output fallbacks start from). */
  readonly lastValidationFailure?: ValidationFailure;

  constructor(options: ReliabilityFailFastErrorOptions) {
    const reduced = options.cause === undefined ? undefined : reduceError(options.cause);
    super({ message: messageOf(options, reduced?.message), cause: KeelError.isKeelError(options.cause) ? options.cause : reduced });
    this.kind = options.kind;
    if (options.label !== undefined) this.label = options.label;
    this.phase = options.phase;
    this.attempt = options.attempt;
    this.errorKind = options.errorKind;
    this.attempts = options.attempts;
    if (options.lastValidationFailure !== undefined) this.lastValidationFailure = options.lastValidationFailure;
  }
}
