import type { ErrorKind } from '../error-kind';
import type { ValidationFailure } from '../errors/validation-failure';
import { CHARS_PER_TOKEN, truncateEcho } from '../feedback/truncate-echo';
import { addUsage, type UsageTotals, ZERO_USAGE } from '../usage';
import type { ValidationIssue } from '../validation/issue';
import type { AttemptRecord } from './attempt-record';
import type { Judged } from './call-and-judge';
import { failureSignature } from './failure-signature';
import type { ValidationFailedEvent, RecoveredEvent } from './gate-event';
import type { GateFeedback } from './gate-options';
import type { GateSettings } from './gate-settings';
import type { AttemptSummary } from './scope';

/**
 * What one gate run has learned so far: the memory the policy decides from. One per gate run (a
 * step's call, or one logical tool call's re-asks); never shared. Only the attempt loop changes it,
 * through {@link noteAttempt} and `applyDecision`.
 */
export interface GateMemory<TResponse> {
  readonly settings: GateSettings<TResponse>;
  readonly history: AttemptSummary[];
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
export function startGate<TResponse>(settings: GateSettings<TResponse>, initial?: { readonly failure: ValidationFailure; readonly feedback: GateFeedback }): GateMemory<TResponse> {
  const memory: GateMemory<TResponse> = {
    settings,
    history: [],
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
    memory.signatures.push(failureSignature(initial.failure));
    memory.lastFailure = initial.failure;
    memory.feedback = initial.feedback;
    memory.recovery = 'feedback';
  }
  return memory;
}

/** Raw output as kept in records and events: at most `maxChars`, cut around the truncation marker. */
export function capRawOutput(text: string, maxChars: number): string {
  return text.length <= maxChars ? text : truncateEcho(text, maxChars / CHARS_PER_TOKEN);
}

/**
 * Notes attempt `attempt` in the gate's memory (its summary, its usage and, for a validation
 * failure, its signature) before the policy decides on it. Returns `validation.failed` for a
 * validation failure, to report before any rule runs. `via` says the output was a patch applied
 * to the rejected value or a continuation joined to a cut output.
 */
export function noteAttempt<TResponse, TValue>(memory: GateMemory<TResponse>, attempt: number, judged: Judged<TResponse, TValue>, usage: UsageTotals, via?: AttemptRecord['via']): ValidationFailedEvent | undefined {
  const { errorKind, verdict } = judged;
  memory.usage = addUsage(memory.usage, usage);
  const failure = verdict?.status === 'invalid' ? verdict.failure : undefined;
  if (via !== undefined) memory.recovery = via;
  memory.history.push({ attempt, providerIndex: memory.providerIndex, errorKind, issueCount: failure ? failure.issues.length : 0 });
  memory.lastKind = errorKind;
  if (!failure) return undefined;
  memory.lastFailure = failure;
  memory.signatures.push(failureSignature(failure));
  return validationFailedEvent(memory, failure, attempt);
}

/**
 * The record of attempt `attempt`, frozen: what the ledger keeps once, whether it failed or not.
 * Made once the policy decided, so that a `rejection` (a rule rejected the valid value) is what
 * the record says, and before the decision is applied (`feedbackSent` is this attempt's).
 */
export function recordOf<TResponse, TValue>(
  memory: GateMemory<TResponse>,
  attempt: number,
  judged: Judged<TResponse, TValue>,
  usage: UsageTotals,
  via: AttemptRecord['via'],
  rejection?: ValidationFailure,
): AttemptRecord {
  const { settings } = memory;
  const { verdict } = judged;
  const judgedFailure = verdict?.status === 'invalid' ? verdict.failure : undefined;
  const failure = rejection ?? judgedFailure;
  const issues: readonly ValidationIssue[] = failure?.issues ?? [];
  const rawOutput = judgedFailure?.rawOutput ?? (verdict && verdict.status !== 'invalid' ? verdict.rawOutput : undefined);
  const record: { -readonly [K in keyof AttemptRecord]: AttemptRecord[K] } = {
    step: settings.step,
    attempt,
    purpose: settings.callPurpose,
    providerIndex: memory.providerIndex,
    status: rejection ? 'invalid' : judged.errorKind === 'ok' ? 'ok' : failure ? 'invalid' : 'error',
    errorKind: rejection ? 'rule-rejected' : judged.errorKind,
    issues,
    elapsedMs: judged.latencyMs,
    usage,
    feedbackSent: memory.feedback !== undefined,
  };
  if (settings.toolCall) record.toolCallId = settings.toolCall.id;
  if (via !== undefined) record.via = via;
  if (rawOutput !== undefined) record.rawOutput = capRawOutput(rawOutput, settings.maxRawOutputChars);
  return Object.freeze(record);
}

/** The `validation.failed` event of a failure that was just noted; `rule`, the rule that rejected a valid value. */
export function validationFailedEvent<TResponse>(memory: Pick<GateMemory<TResponse>, 'settings' | 'signatures'>, failure: ValidationFailure, attempt: number, rule?: string): ValidationFailedEvent {
  return {
    type: 'validation.failed',
    message: failure.message,
    stage: failure.stage,
    ...(rule === undefined ? {} : { rule }),
    ...(failure.pathText === undefined ? {} : { pathText: failure.pathText }),
    rawOutput: capRawOutput(failure.rawOutput, memory.settings.maxRawOutputChars),
    attempt,
    validationFailures: memory.signatures.length,
    issueCount: failure.issues.length,
  };
}
