import type { ErrorKind } from '../error-kind';
import type { ValidationFailure } from '../errors/validation-failure';
import type { FeedbackTemplate } from '../feedback/format-feedback';
import type { PatchRequest } from '../patch/patch-request';
import type { JsonRepair } from '../json/repair-names';
import type { TokenUsage } from '../usage';
import type { Coercion } from '../validation/coerce-to-schema';
import type { ValidationIssue } from '../validation/issue';
import type { AttemptRecord } from './attempt-record';
import type { GateEvent } from './gate-event';
import type { PreCheckRule, ReliabilityRule } from './rule';
import type { AttemptPurpose, ReliabilityScope } from './scope';

/** Feedback the next attempt must carry: the rejected output and what was wrong with it. */
export interface GateFeedback {
  /** The rejected output, capped to the echo budget. */
  readonly previousOutput: string;
  /** The feedback prose. */
  readonly text: string;
  /** The text asks for only the corrected values at these paths (a patch re-ask). */
  readonly patch?: PatchRequest;
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
  | {
      readonly status: 'valid';
      /** The validated value: what rules see as `scope.value`. */
      readonly value: TValue;
      readonly rawOutput?: string;
      /** What the answer was, for rules (`scope.purpose`). Default `final-answer`. */
      readonly purpose?: AttemptPurpose;
      /** Lossless repairs taken to read the value (see `validateOutput`). */
      readonly repairs?: readonly JsonRepair[];
      /** Schema-guided coercions taken to make it valid. */
      readonly coercions?: readonly Coercion[];
      /** Issues the value still has (`strict: false`). */
      readonly issues?: readonly ValidationIssue[];
    }
  | {
      readonly status: 'invalid';
      readonly failure: ValidationFailure;
      readonly partialValue?: unknown;
      /** The rejected value as parsed (before coercion), when it parsed: what a patch re-ask patches. */
      readonly rejectedValue?: unknown;
    }
  | { readonly status: 'error'; readonly errorKind: ErrorKind; readonly message: string; readonly rawOutput?: string };

/** Caps of one gate run; each has a default. */
export interface GateLimits {
  /** Hard cap on attempts, whatever the rules say. Default 10. */
  readonly maxAttempts?: number | undefined;
  /** Longest provider-requested Retry-After honoured, in ms. Default 30 000. */
  readonly maxRetryAfterMs?: number | undefined;
  /** Echo cap for the rejected output in feedback, in tokens. Default 4000. */
  readonly maxFeedbackTokens?: number | undefined;
  /** Cap on the raw output kept in attempt records and `validation.failed` events, in characters. Default 16 384. */
  readonly maxRawOutputChars?: number | undefined;
}

/** Settings of {@link runGate}: twelve at most. Optional settings may also be given as `undefined`. */
export interface GateOptions<TResponse, TValue = TResponse> {
  /**
   * Makes one attempt. Throwing is a provider failure, classified (status, error kind, socket
   * code); resolving to `undefined` or `null`, or throwing either, is a `bad-response`. Raced
   * against `signal`.
   */
  readonly call: (context: GateAttemptContext) => Promise<TResponse>;
  /** Judges a response. Default: accept it as the value. */
  readonly validate?: ((response: TResponse, context: GateAttemptContext) => GateVerdict<TValue> | Promise<GateVerdict<TValue>>) | undefined;
  /** Usage (and cost) of a response, for budgets and the result. Default: zero. */
  readonly usageOf?: ((response: TResponse, context: GateAttemptContext) => TokenUsage) | undefined;
  /** Rules run before every attempt: `continue` or `fail-fast` only. */
  readonly preCheck?: readonly PreCheckRule<TResponse>[] | undefined;
  /** PostDecide rules, run after every attempt; first match wins. */
  readonly postDecide?: readonly ReliabilityRule<TResponse>[] | undefined;
  /** Append the default rules (`defaultRules()`: action loops, transient-error retries, then fail on anything unhandled) after `postDecide`; the default loop rules are left out when `postDecide` has loop rules of its own (kind `action-loop`). Default true. */
  readonly defaults?: boolean | undefined;
  /** Number of providers `retry-other` can move through (`context.providerIndex`). Default 1. */
  readonly providerCount?: number | undefined;
  /**
   * Produces a value when a rule decides `fallback`, from the deciding scope and the gate run's
   * latest validation failure; without it `fallback` fails fast.
   */
  readonly fallback?: ((scope: ReliabilityScope<TResponse>, lastFailure: ValidationFailure | undefined) => Promise<TValue>) | undefined;
  readonly limits?: GateLimits | undefined;
  /**
   * The feedback text of validation retries, when the deciding rule gives none: a fixed string or
   * a {@link FeedbackTemplate}; `false` sends no feedback. Default: the built-in prose
   * (`formatFeedback`). A throw falls back to the default (and reports `reliability.feedback-error`).
   */
  readonly feedbackForLLM?: string | FeedbackTemplate<TResponse> | false | undefined;
  readonly signal?: AbortSignal | undefined;
  /** Observer of gate events. Its throws are swallowed: wrap it to report them. */
  readonly onEvent?: ((event: GateEvent) => void) | undefined;
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
  readonly usage: TokenUsage;
  /** Issues of the accepted value when a rule accepted invalid output with `accept`. */
  readonly acceptedIssues?: AttemptRecord['issues'];
}
