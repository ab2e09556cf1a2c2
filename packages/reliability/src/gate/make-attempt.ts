import type { ErrorKind } from '../error-kind';
import { AbortedError } from '../errors/aborted-error';
import { CHARS_PER_TOKEN, truncateEcho } from '../feedback/truncate-echo';
import type { ValidationFailure } from '../errors/validation-failure';
import { addUsage } from '../usage';
import { issueSignature, type ValidationIssue } from '../validation/issue';
import type { AttemptRecord } from './attempt-record';
import { emitGateEvent, failFast, type GateRun, type Mutable, scopeOf } from './gate-run';
import type { GateAttemptContext, GateVerdict } from './gate-options';
import { callAndJudge } from './call-and-judge';
import type { ReliabilityScope } from './scope';

/** Default cap on raw output kept in attempt records and events, in characters. */
export const DEFAULT_MAX_RAW_OUTPUT_CHARS = 16_384;

/** Raw output as kept in records and events: at most `maxChars`, cut around the truncation marker. */
function capRawOutput(text: string, maxChars: number): string {
  return text.length <= maxChars ? text : truncateEcho(text, maxChars / CHARS_PER_TOKEN);
}

/** What one attempt produced, as plain data: the input of the decision. */
export interface AttemptOutcome<TResponse, TValue> {
  readonly attempt: number;
  /** `ok` or the failure's kind. */
  readonly kind: ErrorKind;
  readonly response: TResponse | undefined;
  readonly verdict: GateVerdict<TValue> | undefined;
  /** The validation failure of this attempt, if any. */
  readonly failure: ValidationFailure | undefined;
  readonly issues: readonly ValidationIssue[];
  /** What made the attempt fail, for a fail-fast error's cause. */
  readonly cause: unknown;
  /** Delay the provider asked for, in ms. */
  readonly retryAfterMs: number | undefined;
  /** The PostDecide scope of this attempt. */
  readonly scope: ReliabilityScope<TResponse>;
}

/**
 * Makes attempt `attempt`: the call (carrying the pending feedback), the verdict, the attempt
 * record (counted even when it failed), and `validation.failed` before any rule runs.
 * @throws {AbortedError} when the attempt was aborted.
 * @throws {ReliabilityFailFastError} when the validator threw.
 */
export async function makeAttempt<TResponse, TValue>(run: GateRun<TResponse, TValue>, attempt: number): Promise<AttemptOutcome<TResponse, TValue>> {
  const { options, signal } = run;
  const context: Mutable<GateAttemptContext> = { attempt, providerIndex: run.providerIndex };
  if (run.feedback) context.feedback = run.feedback;
  if (signal) context.signal = signal;
  const judged = await callAndJudge(run, context);
  const { kind, verdict } = judged;
  run.usage = addUsage(run.usage, judged.usage);

  const failure = verdict?.status === 'invalid' ? verdict.failure : undefined;
  const issues: readonly ValidationIssue[] = failure?.issues ?? [];
  const rawOutput = failure?.rawOutput ?? (verdict && verdict.status !== 'invalid' ? verdict.rawOutput : undefined);
  const record: Mutable<AttemptRecord> = {
    step: options.step ?? 0,
    attempt,
    purpose: options.purpose ?? 'step',
    providerIndex: run.providerIndex,
    status: kind === 'ok' ? 'ok' : failure ? 'invalid' : 'error',
    errorKind: kind,
    issues,
    elapsedMs: judged.latencyMs,
    usage: judged.usage,
    feedbackSent: run.feedback !== undefined,
  };
  const maxRawOutputChars = options.maxRawOutputChars ?? DEFAULT_MAX_RAW_OUTPUT_CHARS;
  if (rawOutput !== undefined) record.rawOutput = capRawOutput(rawOutput, maxRawOutputChars);
  run.attempts.push(record);
  try {
    options.onAttempt?.(record);
  } catch {
    // An observer, like onEvent: it never changes the run.
  }
  run.history.push({ attempt, providerIndex: run.providerIndex, errorKind: kind, issueCount: issues.length });
  run.lastKind = kind;

  if (kind === 'aborted') throw signal?.aborted ? AbortedError.fromSignal(signal) : new AbortedError({ cause: judged.thrown });
  if (judged.validatorError !== undefined) {
    failFast(run, { kind: 'validator-error', label: 'the validator threw', phase: 'post-decide', attempt, errorKind: kind, cause: judged.validatorError });
  }
  if (failure) {
    run.lastFailure = failure;
    run.validationErrorHistory.push(issueSignature(failure.issues));
    emitGateEvent(run, {
      type: 'validation.failed',
      message: failure.message,
      stage: failure.stage,
      ...(failure.pathText === undefined ? {} : { pathText: failure.pathText }),
      rawOutput: capRawOutput(failure.rawOutput, maxRawOutputChars),
      attempt,
      validationFailures: run.validationErrorHistory.length,
      issueCount: failure.issues.length,
    });
  }

  const scope = scopeOf(run, attempt, 'post-decide');
  scope.errorKind = kind;
  scope.latencyMs = judged.latencyMs;
  if (judged.response !== undefined) scope.response = judged.response;
  if (judged.thrown !== undefined) scope.error = judged.thrown;
  if (judged.retryAfterMs !== undefined) scope.retryAfterMs = judged.retryAfterMs;
  if (failure) {
    scope.validationError = {
      message: failure.message,
      stage: failure.stage,
      ...(failure.pathText === undefined ? {} : { pathText: failure.pathText }),
      rawOutput: failure.rawOutput,
      issues: failure.issues,
    };
  }
  const cause = judged.thrown ?? failure ?? (verdict?.status === 'error' ? new Error(verdict.message) : undefined);
  return { attempt, kind, response: judged.response, verdict, failure, issues, cause, retryAfterMs: judged.retryAfterMs, scope };
}
