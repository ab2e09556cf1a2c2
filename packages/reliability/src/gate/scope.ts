import type { ErrorKind } from '../error-kind';
import type { ValidationStage } from '../errors/validation-failure';
import type { UsageTotals } from '../usage';
import type { ValidationIssue } from '../validation/issue';

/** The validation failure of the current attempt, as rules see it. */
export interface ScopeValidationError {
  readonly message: string;
  readonly stage: ValidationStage;
  /** The printed path of the first issue (`entries[0].confidence`), when there is one. */
  readonly pathText?: string;
  readonly rawOutput?: string;
  readonly issues: readonly ValidationIssue[];
}

/** A past attempt, as later rules see it. */
export interface AttemptSummary {
  readonly attempt: number;
  readonly providerIndex: number;
  readonly errorKind: ErrorKind;
  /** Number of validation issues (0 when not a validation failure). */
  readonly issueCount: number;
}

/**
 * What rules see. Rebuilt for every attempt: PreCheck rules see it before the call (with the
 * previous attempt's facts), PostDecide rules after it.
 */
export interface ReliabilityScope<TResponse = unknown> {
  /** Which rule phase is evaluating. */
  readonly phase: 'pre-check' | 'post-decide';
  /** 1-based number of the attempt about to be made (pre-check) or just made (post-decide). */
  readonly attempt: number;
  /** Index of the provider in use (0 = primary). */
  readonly providerIndex: number;
  /** Number of providers `retry-other` can move through. */
  readonly providerCount: number;
  /** The response of this attempt, when the call answered. */
  readonly response?: TResponse;
  /** What the call threw, when it threw. */
  readonly error?: unknown;
  /** Classification of this attempt: `ok` or the failure's kind. */
  readonly errorKind: ErrorKind;
  /** Duration of the call in milliseconds (0 before the call). */
  readonly latencyMs: number;
  /** The validation failure of this attempt, if any. */
  readonly validationError?: ScopeValidationError;
  /** Normalised issue-set signatures (sorted `path|kind` pairs) of every validation failure so far. */
  readonly validationErrorHistory: readonly string[];
  /** Every attempt made so far in this gate run, this one included once it has run. */
  readonly history: readonly AttemptSummary[];
  /** Usage of this gate run (this step) and of the whole run so far, failed attempts included. */
  readonly usage: { readonly step: UsageTotals; readonly run: UsageTotals };
  /** Delay the provider asked for before retrying, in milliseconds. */
  readonly retryAfterMs?: number;
  /** Number of retries already made in this gate run. */
  readonly retries: number;
  /** Aborts the run; rules that wait should honour it. */
  readonly signal?: AbortSignal;
}
