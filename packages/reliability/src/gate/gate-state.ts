import type { ErrorKind } from '../error-kind';
import type { ValidationFailure } from '../errors/validation-failure';
import type { FeedbackTemplate } from '../feedback/format-feedback';
import { CHARS_PER_TOKEN, truncateEcho } from '../feedback/truncate-echo';
import { addUsage, type UsageTotals, ZERO_USAGE } from '../usage';
import type { PatchSettings } from '../patch/patch-request';
import type { ValidationIssue } from '../validation/issue';
import type { AttemptRecord } from './attempt-record';
import type { Judged } from './call-and-judge';
import { failureSignature } from './failure-signature';
import { frozenCopy } from './frozen-copy';
import type { ValidationFailedEvent, RecoveredEvent } from './gate-event';
import type { GateFeedback } from './gate-options';
import type { PreCheckRule, ReliabilityRule, RuleDecision } from './rule';
import type { AttemptPurpose, AttemptSummary, ReliabilityScope } from './scope';

/** How feedback is written for a validation retry. */
export interface FeedbackSettings<TResponse> {
  /** The caller's hook (after a rule's own), else the default prose. */
  readonly template?: string | FeedbackTemplate<TResponse> | undefined;
  /** Echo cap for the rejected output, in tokens. */
  readonly maxTokens: number;
  /** Static text appended to the default feedback. */
  readonly retryHint?: string | undefined;
  /** What failed, starting the default header (`Your previous reply`). */
  readonly subject?: string | undefined;
  /** The default closing instruction of a schema failure. */
  readonly instruction?: string | undefined;
}

/** The resolved policy of one gate: rules, caps and feedback. Built once, shared by attempts. */
export interface GateSettings<TResponse> {
  readonly preCheck: readonly PreCheckRule<TResponse>[];
  /** PostDecide rules, defaults already appended. */
  readonly rules: readonly ReliabilityRule<TResponse>[];
  readonly maxAttempts: number;
  readonly maxRetryAfterMs: number;
  readonly providerCount: number;
  /** `false`: validation retries carry no feedback. */
  readonly feedback: FeedbackSettings<TResponse> | false;
  readonly maxRawOutputChars: number;
  /** Reported in attempt records. */
  readonly step: number;
  readonly callPurpose: AttemptRecord['purpose'];
  /** The tool call a tool-argument re-ask is for. */
  readonly toolCall?: { readonly id: string; readonly name: string } | undefined;
  /**
   * Failures of the answer itself that a fallback value may stand in for: a stop on one of these
   * (a budget used up, a rule's stop; never a rule or validator that crashed) is decided as
   * `fallback` instead, carrying the stop.
   */
  readonly fallbackOn?: readonly ErrorKind[] | undefined;
  /**
   * Patch re-asks: a schema failure of a large value with issues at a few paths asks for only the
   * corrected values (see `patchRequestOf`). Absent: every re-ask asks for the whole value.
   */
  readonly patch?: PatchSettings | undefined;
  /**
   * Continuation of output cut at the token limit (`truncated` with the cut text): at most
   * `maxContinuations` in a row, each an attempt. Absent: a cut output is a `truncated` failure.
   */
  readonly continuation?: { readonly maxContinuations: number } | undefined;
}

/**
 * What one gate has learned so far: the memory the policy decides from. One per gate run (a step's
 * call, or one logical tool call's re-asks); never shared.
 */
export interface GateState<TResponse> {
  readonly settings: GateSettings<TResponse>;
  readonly history: AttemptSummary[];
  /** The record of the latest attempt (the caller keeps the list: one ledger). */
  lastRecord: AttemptRecord | undefined;
  /** Failure signatures of every validation failure so far. */
  readonly signatures: string[];
  /** Usage of this gate's attempts. */
  usage: UsageTotals;
  providerIndex: number;
  /** Feedback the next attempt carries. */
  feedback: GateFeedback | undefined;
  /** The kind of the latest attempt (what PreCheck rules see). */
  lastKind: ErrorKind;
  lastFailure: ValidationFailure | undefined;
  /** How the latest retry tried to overcome its failure, for `reliability.recovered`. */
  recovery: RecoveredEvent['via'];
  /** The cut output the next attempt continues (a `continue-output` decision), trailing whitespace removed. */
  continuation: string | undefined;
  /** Continuations made in a row for the current output. */
  continuations: number;
}

/** Starts a gate's memory. A tool-argument re-ask starts from the failure of the arguments the step produced. */
export function startGate<TResponse>(settings: GateSettings<TResponse>, initial?: { readonly failure: ValidationFailure; readonly feedback: GateFeedback }): GateState<TResponse> {
  const state: GateState<TResponse> = {
    settings,
    history: [],
    lastRecord: undefined,
    signatures: [],
    usage: ZERO_USAGE,
    providerIndex: 0,
    feedback: undefined,
    lastKind: 'ok',
    lastFailure: undefined,
    recovery: 'retry',
    continuation: undefined,
    continuations: 0,
  };
  if (initial) {
    state.signatures.push(failureSignature(initial.failure));
    state.lastFailure = initial.failure;
    state.feedback = initial.feedback;
    state.recovery = 'feedback';
  }
  return state;
}

/** Raw output as kept in records and events: at most `maxChars`, cut around the truncation marker. */
export function capRawOutput(text: string, maxChars: number): string {
  return text.length <= maxChars ? text : truncateEcho(text, maxChars / CHARS_PER_TOKEN);
}

/** What recording an attempt produced. */
export interface Recorded {
  readonly record: AttemptRecord;
  readonly failure: ValidationFailure | undefined;
  /** `validation.failed`, reported before any rule runs. */
  readonly event: ValidationFailedEvent | undefined;
}

/**
 * Records attempt `attempt` in the gate's memory (its summary and, for a validation failure, its
 * signature) and returns its record, which the caller keeps once in its ledger: counted whether it
 * failed or not. An aborted attempt is recorded too; the caller then ends with {@link abortedError}.
 * `via` says the output was a patch applied to the rejected value or a continuation joined to a
 * cut output (recorded on the attempt, and the way a recovery is reported).
 */
export function recordAttempt<TResponse, TValue>(state: GateState<TResponse>, attempt: number, judged: Judged<TResponse, TValue>, usage: UsageTotals, via?: AttemptRecord['via']): Recorded {
  const { settings } = state;
  const { kind, verdict } = judged;
  state.usage = addUsage(state.usage, usage);
  const failure = verdict?.status === 'invalid' ? verdict.failure : undefined;
  const issues: readonly ValidationIssue[] = failure?.issues ?? [];
  const rawOutput = failure?.rawOutput ?? (verdict && verdict.status !== 'invalid' ? verdict.rawOutput : undefined);
  const record: { -readonly [K in keyof AttemptRecord]: AttemptRecord[K] } = {
    step: settings.step,
    attempt,
    purpose: settings.callPurpose,
    providerIndex: state.providerIndex,
    status: kind === 'ok' ? 'ok' : failure ? 'invalid' : 'error',
    errorKind: kind,
    issues,
    elapsedMs: judged.latencyMs,
    usage,
    feedbackSent: state.feedback !== undefined,
  };
  if (settings.toolCall) record.toolCallId = settings.toolCall.id;
  if (via !== undefined) {
    record.via = via;
    state.recovery = via;
  }
  if (rawOutput !== undefined) record.rawOutput = capRawOutput(rawOutput, settings.maxRawOutputChars);
  state.lastRecord = record;
  state.history.push({ attempt, providerIndex: state.providerIndex, errorKind: kind, issueCount: issues.length });
  state.lastKind = kind;
  if (!failure) return { record, failure, event: undefined };
  state.lastFailure = failure;
  state.signatures.push(failureSignature(failure));
  return { record, failure, event: validationFailedEvent(state, failure, attempt) };
}

/** The `validation.failed` event of a failure that was just recorded. */
export function validationFailedEvent<TResponse>(state: GateState<TResponse>, failure: ValidationFailure, attempt: number): ValidationFailedEvent {
  return {
    type: 'validation.failed',
    message: failure.message,
    stage: failure.stage,
    ...(failure.pathText === undefined ? {} : { pathText: failure.pathText }),
    rawOutput: capRawOutput(failure.rawOutput, state.settings.maxRawOutputChars),
    attempt,
    validationFailures: state.signatures.length,
    issueCount: failure.issues.length,
  };
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/**
 * The scope rules see: the facts of the gate so far, with live (read-only) history views. For
 * PostDecide, `judged` is the attempt just made; `runUsage` is the whole run's usage (the gate's
 * own when it runs alone).
 */
export function scopeOf<TResponse, TValue>(
  state: GateState<TResponse>,
  attempt: number,
  runUsage: UsageTotals,
  signal: AbortSignal | undefined,
  judged?: Judged<TResponse, TValue>,
): ReliabilityScope<TResponse, TValue> {
  const { settings } = state;
  const purpose: AttemptPurpose = settings.toolCall ? 'tool-arguments' : judged?.verdict?.status === 'accept' ? (judged.verdict.purpose ?? 'final-answer') : 'final-answer';
  const scope: Mutable<ReliabilityScope<TResponse, TValue>> = {
    phase: judged ? 'post-decide' : 'pre-check',
    attempt,
    purpose,
    providerIndex: state.providerIndex,
    providerCount: settings.providerCount,
    errorKind: judged ? judged.kind : state.lastKind,
    latencyMs: judged?.latencyMs ?? 0,
    validationErrorHistory: state.signatures,
    history: state.history,
    usage: { step: state.usage, run: runUsage },
    retries: attempt - 1,
  };
  if (settings.toolCall) scope.toolCall = settings.toolCall;
  if (signal) scope.signal = signal;
  if (!judged) return scope;
  if (judged.response !== undefined) scope.response = judged.response;
  if (judged.thrown !== undefined) scope.error = judged.thrown;
  if (judged.retryAfterMs !== undefined) scope.retryAfterMs = judged.retryAfterMs;
  const verdict = judged.verdict;
  if (verdict?.status === 'accept') {
    // Rules read the value, never change it: a deep-frozen copy, made only when a rule reads it.
    const accepted = verdict.value;
    let copy: { readonly value: TValue } | undefined;
    Object.defineProperty(scope, 'value', { enumerable: true, get: () => (copy ??= { value: frozenCopy(accepted) }).value });
  }
  if (verdict?.status === 'invalid') {
    const failure = verdict.failure;
    scope.validationError = {
      message: failure.message,
      stage: failure.stage,
      ...(failure.pathText === undefined ? {} : { pathText: failure.pathText }),
      rawOutput: failure.rawOutput,
      issues: failure.issues,
    };
  }
  return scope;
}

/** Decisions a rule may name, for checks at build time. */
const DECISIONS: ReadonlySet<unknown> = new Set<RuleDecision>(['continue', 'ok', 'retry', 'retry-other', 'fallback', 'fail-fast']);

/**
 * Why `rule` cannot run, or `undefined`: it must be an object with a `when` function and a known
 * decision (`continue` or `fail-fast` only, for a PreCheck rule). A rule deciding something else
 * would leave the gate without a next step.
 */
export function ruleProblem(rule: unknown, phase: 'pre-check' | 'post-decide'): string | undefined {
  if (typeof rule !== 'object' || rule === null) return `a rule is ${rule === null ? 'null' : typeof rule}, not a rule`;
  const { when, then, kind } = rule as { when?: unknown; then?: unknown; kind?: unknown };
  const name = typeof kind === 'string' ? `rule "${kind}"` : 'a rule';
  if (typeof when !== 'function') return `${name} has no when function`;
  if (!DECISIONS.has(then)) return `${name} decides ${typeof then === 'string' ? `"${then}"` : typeof then}, which is not a decision`;
  if (phase === 'pre-check' && then !== 'continue' && then !== 'fail-fast') return `PreCheck ${name} decides "${String(then)}"; PreCheck rules may only continue or fail-fast`;
  return undefined;
}

/** @throws {TypeError} for the first rule that is not one (see {@link ruleProblem}). */
export function checkRules(preCheck: readonly unknown[], postDecide: readonly unknown[]): void {
  for (const [list, phase] of [[preCheck, 'pre-check'], [postDecide, 'post-decide']] as const) {
    for (const rule of list) {
      const problem = ruleProblem(rule, phase);
      if (problem) throw new TypeError(problem);
    }
  }
}
