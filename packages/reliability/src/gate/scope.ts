import type { ErrorKind } from '../error-kind';
import type { ValidationStage } from '../errors/validation-failure';
import type { TokenUsage } from '../usage';
import type { ValidationIssue } from '../validation/issue';
import type { RuleRunView } from '../loops/run-view';

/** The validation failure of the current attempt, as rules see it. */
interface ScopeValidationError {
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
 * What a model call was for, as rules see it: the step's `final-answer` (a turn with no tool
 * call), a `tool-call-turn`, or a `tool-re-ask` re-ask of one tool call's arguments. Before a
 * step's call answers (PreCheck), a step call reads `final-answer`.
 */
export type AttemptPurpose = 'final-answer' | 'tool-call-turn' | 'tool-re-ask';

/**
 * What rules see. Rebuilt for every attempt: PreCheck rules see it before the call (with the
 * previous attempt's facts), PostDecide rules after it. `TValue` is the validated value's type:
 * write a rule as `ReliabilityRule<ModelResponse, Refund>` to read `scope.value` typed.
 */
export interface ReliabilityScope<TResponse = unknown, TValue = unknown> {
  /** Which rule phase is evaluating. */
  readonly phase: 'pre-check' | 'post-decide';
  /** 1-based number of the attempt about to be made (pre-check) or just made (post-decide). */
  readonly attempt: number;
  /** Index of the provider in use (0 = primary). */
  readonly providerIndex: number;
  /** Number of providers `retry-other` can move through. */
  readonly providerCount: number;
  /** What the attempt was for. */
  readonly purpose: AttemptPurpose;
  /** The tool call a `tool-re-ask` re-ask is for. */
  readonly toolCall?: { readonly id: string; readonly name: string };
  /**
   * The validated value of this attempt, when it passed validation (PostDecide only): the parsed
   * output, or a tool call's arguments as the tool will receive them. A rule that decides `retry`
   * on it (with `feedbackForLLM`) rejects it: see `docs/custom-rules.md`.
   */
  readonly value?: TValue;
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
  /** Signatures of every validation failure so far (see `failureSignature`): equal signatures are the same mistake. */
  readonly validationErrorHistory: readonly string[];
  /** Every attempt made so far in this gate run, this one included once it has run. */
  readonly history: readonly AttemptSummary[];
  /** Usage of this gate run (this step) and of the whole run so far, failed attempts included. */
  readonly usage: { readonly step: TokenUsage; readonly run: TokenUsage };
  /** Delay the provider asked for before retrying, in milliseconds. */
  readonly retryAfterMs?: number;
  /** Number of retries already made in this gate run. */
  readonly retries: number;
  /**
   * The run so far, when the gate runs inside an agent's run: its finished steps (each tool call's
   * name, argument and result hashes, whether it failed), the turn being judged, and the usage.
   * Absent around a lone model call (`runGate`).
   */
  readonly run?: RuleRunView;
  /** Aborts the run; rules that wait should honour it. */
  readonly signal?: AbortSignal;
}
