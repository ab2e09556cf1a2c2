import type { ActionLoopType } from '../loops/detect-action-loop';
import type { ErrorKind } from '../error-kind';
import type { ValidationStage } from '../errors/validation-failure';

/** A validation failure, reported before PostDecide rules run, whether or not a retry follows. */
export interface ValidationFailedEvent {
  readonly type: 'validation.failed';
  readonly message: string;
  readonly stage: ValidationStage;
  /** On stage `rule-check`: the rule (its kind) that rejected the valid value. */
  readonly rule?: string;
  /** The printed path of the first issue (`entries[0].confidence`), when there is one. */
  readonly pathText?: string;
  readonly rawOutput: string;
  readonly attempt: number;
  /** Validation failures so far in this gate run, this one included. */
  readonly validationFailures: number;
  readonly issueCount: number;
}

/** The gate is about to make another attempt. */
export interface RetryEvent {
  readonly type: 'reliability.retry';
  /** The attempt that failed. */
  readonly attempt: number;
  /** The rule that decided the retry. */
  readonly rule: string;
  /** The rule the retry answers when it rejected a valid answer (stage `rule-check`). */
  readonly rejectedBy?: string;
  readonly errorKind: ErrorKind;
  readonly delayMs: number;
  /** `retry` (same provider) or `retry-other` (next provider). */
  readonly decision: 'retry' | 'retry-other';
  /** The feedback text the next attempt carries, when it carries one. */
  readonly feedback?: string;
}

/**
 * The gate waits before an attempt because a PreCheck rule said so (a `continue` rule with a
 * `backoff`), e.g. a backoff shared by a fleet of workers after one of them was rate-limited.
 */
export interface WaitEvent {
  readonly type: 'reliability.wait';
  /** The attempt about to be made. */
  readonly attempt: number;
  /** The rule that asked for the wait (e.g. `shared-backoff`). */
  readonly rule: string;
  readonly delayMs: number;
}

/** An attempt succeeded after earlier ones failed. */
export interface RecoveredEvent {
  readonly type: 'reliability.recovered';
  readonly attempt: number;
  readonly priorFailures: number;
  /** How the failure was overcome. */
  readonly via: 'retry' | 'feedback' | 'retry-other' | 'fallback' | 'patch' | 'continuation';
}

/** The gate stopped. */
export interface FailFastEvent {
  readonly type: 'reliability.fail-fast';
  /** The rule that stopped the gate (`ReliabilityFailFastError.kind`). */
  readonly rule: string;
  readonly label?: string;
  readonly attempt: number;
  readonly errorKind: ErrorKind;
  readonly phase: string;
}

/** A rule's `when`, `backoff` or `feedbackForLLM` threw. */
export interface RuleErrorEvent {
  readonly type: 'reliability.rule-error';
  readonly phase: 'pre-check' | 'post-decide';
  readonly rule: string;
  /** What threw: its `when` or its `backoff` (a throwing `feedbackForLLM` is a `reliability.feedback-error`, and the default feedback is sent). */
  readonly part: 'when' | 'backoff';
  readonly message: string;
}

/** A feedback template or callback threw; the default feedback was sent instead. */
export interface FeedbackErrorEvent {
  readonly type: 'reliability.feedback-error';
  readonly source: 'template' | 'rule';
  readonly message: string;
}

/** The action-loop rules found the run going round a loop: the model is told (`nudge`) or the run stops (`stop`). */
export interface LoopDetectedEvent {
  readonly type: 'reliability.loop-detected';
  readonly attempt: number;
  /** The action-loop rule that found the loop (`action-loop`). */
  readonly rule: string;
  /** `repeated-call`, `same-error`, `alternation` or `repeated-reply`. */
  readonly loop: ActionLoopType;
  /** The tools of one round, comma-separated (empty for a repeated reply). */
  readonly tools: string;
  /** Rounds the run already made, unchanged, before the turn judged. */
  readonly rounds: number;
  readonly action: 'nudge' | 'stop';
}

/** Every event the gate reports. */
export type GateEvent = ValidationFailedEvent | RetryEvent | WaitEvent | RecoveredEvent | FailFastEvent | RuleErrorEvent | FeedbackErrorEvent | LoopDetectedEvent;
