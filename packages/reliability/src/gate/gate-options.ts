import type { ErrorClassification } from '../classify-error';
import type { ErrorKind } from '../error-kind';
import type { ValidationFailure } from '../errors/validation-failure';
import type { FeedbackTemplate } from '../feedback/format-feedback';
import type { UsageTotals } from '../usage';
import type { AttemptRecord } from './attempt-record';
import type { GateEvent } from './gate-event';
import type { PreCheckRule, ReliabilityRule } from './rule';
import type { ReliabilityScope } from './scope';

/** Feedback the next attempt must carry: the rejected output and what was wrong with it. */
export interface GateFeedback {
  /** The rejected output, capped to the echo budget. */
  readonly previousOutput: string;
  /** The feedback prose. */
  readonly text: string;
}

/** What the gate's `call` receives for each attempt. */
export interface GateAttemptContext {
  readonly attempt: number;
  readonly providerIndex: number;
  /** Present on a retry after a validation failure (unless feedback is off). */
  readonly feedback?: GateFeedback;
  readonly signal?: AbortSignal;
}

/** The verdict on a response. */
export type GateVerdict<TValue> =
  | { readonly status: 'accept'; readonly value: TValue; readonly rawOutput?: string }
  | { readonly status: 'invalid'; readonly failure: ValidationFailure; readonly partialValue?: unknown }
  | { readonly status: 'error'; readonly errorKind: ErrorKind; readonly message: string; readonly rawOutput?: string };

/** Settings of {@link runGate}. Optional settings may also be given as `undefined`. */
export interface GateOptions<TResponse, TValue = TResponse> {
  /**
   * Makes one attempt. Throwing is a provider failure, classified by `classify`; resolving to
   * `undefined` or `null`, or throwing a non-error, is a `bad-response`. Raced against `signal`.
   */
  readonly call: (context: GateAttemptContext) => Promise<TResponse>;
  /** Judges a response. Default: accept it as the value. */
  readonly validate?: ((response: TResponse, context: GateAttemptContext) => GateVerdict<TValue> | Promise<GateVerdict<TValue>>) | undefined;
  /** Usage (and cost) of a response. Default: zero. */
  readonly usageOf?: ((response: TResponse, context: GateAttemptContext) => UsageTotals) | undefined;
  /** Rules run before every attempt: `continue` or `fail-fast` only. */
  readonly preCheck?: readonly PreCheckRule<TResponse>[] | undefined;
  /** PostDecide rules, run after every attempt; first match wins. */
  readonly postDecide?: readonly ReliabilityRule<TResponse>[] | undefined;
  /** Append the default rules (`defaultRules()`: transient-error retries, then fail on anything unhandled) after `postDecide`. Default true. */
  readonly defaults?: boolean | undefined;
  /** Number of providers `retry-other` can move through. Default 1. */
  readonly providerCount?: number | undefined;
  /**
   * Produces a value when a rule decides `fallback`, from the deciding scope and the gate run's
   * latest validation failure; without it `fallback` fails fast.
   */
  readonly fallback?: ((scope: ReliabilityScope<TResponse>, lastFailure: ValidationFailure | undefined) => Promise<TValue>) | undefined;
  /** Hard cap on attempts in one gate run, whatever the rules say. Default 10. */
  readonly maxAttempts?: number | undefined;
  /** Longest provider-requested Retry-After honoured, in ms. Default 30 000. */
  readonly maxRetryAfterMs?: number | undefined;
  /** Send feedback on validation retries. Default true. */
  readonly feedback?: boolean | undefined;
  /**
   * The feedback text of validation retries, when the deciding rule gives none: a fixed string or
   * a {@link FeedbackTemplate}. Default: the built-in prose (`formatFeedback`). A throw falls back
   * to the default (and reports `reliability.feedback-error`).
   */
  readonly feedbackForLLM?: string | FeedbackTemplate<TResponse> | undefined;
  /** Echo cap for the rejected output, in tokens. Default 4000. */
  readonly maxFeedbackTokens?: number | undefined;
  /** Static text appended to every default feedback. */
  readonly retryHint?: string | undefined;
  readonly signal?: AbortSignal | undefined;
  /** Observer of gate events. Its throws are swallowed: wrap it to report them. */
  readonly onEvent?: ((event: GateEvent) => void) | undefined;
  /** Reported in attempt records. */
  readonly step?: number | undefined;
  readonly purpose?: AttemptRecord['purpose'] | undefined;
  /**
   * Usage of the enclosing run, for run-wide budgets: a snapshot of the run before this gate run
   * (this run's attempts are added to it), or a function returning the live total of the whole run
   * — this gate run and any concurrent ones included — read each time a rule runs.
   */
  readonly runUsage?: UsageTotals | (() => UsageTotals) | undefined;
  /**
   * Runs each attempt's PreCheck and call inside it. Concurrent gate runs that share one budget pass
   * the same lock (a function running work one at a time) so every PreCheck sees what the others
   * spent: a cap is then exceeded by at most one call's usage.
   */
  readonly exclusive?: (<T>(work: () => Promise<T>) => Promise<T>) | undefined;
  /** Cap on the raw output kept in attempt records and `validation.failed` events, in characters. Default 16 384. */
  readonly maxRawOutputChars?: number | undefined;
  /** Classifies thrown values. Default {@link classifyError}. */
  readonly classify?: ((error: unknown) => ErrorClassification) | undefined;
  /** Attempts the enclosing run made before this gate run: a fail-fast error lists them first, so it carries the whole run's attempts. */
  readonly priorAttempts?: readonly AttemptRecord[] | undefined;
  /**
   * The enclosing run's attempts so far, live (this gate run's and concurrent ones' included, as
   * recorded by `onAttempt`): when given, a fail-fast error carries this list itself instead of
   * `priorAttempts` plus this run's, so attempts of concurrent gate runs that settle after the stop
   * are in it too once the enclosing run ends.
   */
  readonly runAttempts?: (() => readonly AttemptRecord[]) | undefined;
  /** Called after every attempt with its record (for ledgers and live traces). */
  readonly onAttempt?: ((record: AttemptRecord) => void) | undefined;
}

/** What {@link runGate} resolves with. */
export interface GateResult<TResponse, TValue = TResponse> {
  /** The accepted response; absent when the value came from `fallback`. */
  readonly response?: TResponse;
  readonly value: TValue;
  /** `model` when a response was accepted, `fallback` when the fallback produced the value. */
  readonly via: 'model' | 'fallback';
  /** Every attempt, failed ones included. */
  readonly attempts: readonly AttemptRecord[];
  /** Usage of every attempt of this gate run. */
  readonly usage: UsageTotals;
  /** Issues of the accepted value when a rule accepted invalid output with `ok`. */
  readonly acceptedIssues?: AttemptRecord['issues'];
}
