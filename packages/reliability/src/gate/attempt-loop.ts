import { classifyError } from '../classify-error';
import { AbortedError } from '../errors/aborted-error';
import { BadResponseError } from '../errors/bad-response-error';
import type { ValidationFailure } from '../errors/validation-failure';
import { raceSignal, rethrowIfAborted } from '../race-signal';
import { sleep } from '../sleep';
import { addUsage, type TokenUsage, ZERO_USAGE } from '../usage';
import type { ValidationIssue } from '../validation/issue';
import { applyDecision } from './apply-decision';
import type { AttemptRecord } from './attempt-record';
import { type Decision, type FailFastDecision, unreachableDecision } from './decision';
import { failureSignature } from './failure-signature';
import type { GateEvent, ValidationFailedEvent } from './gate-event';
import type { GateMemory } from './gate-memory';
import type { GateFeedback, GateVerdict } from './gate-options';
import type { GateSettings } from './gate-settings';
import type { Judge, Judged } from './judged';
import { capRawOutput, decide, fallbackRecovered, validationFailedEvent } from './policy';
import { preCheck } from './pre-check';
import { failFastError, stop } from './rule-match';
import type { ReliabilityScope } from './scope';
import { scopeOf } from './scope-of';

export type { Judge, Judged };

/** One attempt made and judged: what the loop notes, records and decides on. */
export interface Attempted<TResponse, TValue> {
  readonly judged: Judged<TResponse, TValue>;
  /** Tokens (and cost) of the attempt; zero for a call that failed before answering. */
  readonly usage: TokenUsage;
  /** The output was a patch applied to the rejected value, or a continuation joined to a cut output. */
  readonly via?: AttemptRecord['via'];
}

/** What a `fallback` decision asks the driver for. */
export interface FallbackRequest<TResponse> {
  /** The deciding scope. */
  readonly scope: ReliabilityScope<TResponse>;
  /** The gate run's latest validation failure. */
  readonly lastFailure: ValidationFailure | undefined;
  /** Why the fallback is used: the stop it replaces, or that a rule chose it. */
  readonly reason: string;
  /** The rule whose decision the fallback answers (its kind). */
  readonly rule: string;
}

/**
 * What the one attempt loop needs from its caller: the call, the bookkeeping and the outcomes.
 * Core supplies the provider call, the judge, the run's ledger and its events; `runGate` a
 * default driver around any call. The loop calls its functions on the driver (`driver.report(...)`),
 * never detached, so a driver may be an object with methods.
 */
export interface AttemptDriver<TResponse, TValue, TAttempted extends Attempted<TResponse, TValue>, TResult> {
  readonly settings: GateSettings<TResponse>;
  readonly signal: AbortSignal | undefined;
  /** Where a tool-argument re-ask starts: the failure of the arguments the step produced. */
  readonly initial?: { readonly failure: ValidationFailure; readonly feedback: GateFeedback } | undefined;
  /** Cut output the first attempt continues (see `continue-output`). */
  readonly continueFrom?: string | undefined;
  /** Makes attempt `attempt` (the gate's memory says the provider, feedback and pending continuation) and judges its answer. */
  readonly attempt: (memory: GateMemory<TResponse>, attempt: number) => Promise<TAttempted>;
  /** Runs PreCheck and the call together, one run's calls at a time (so concurrent calls see what each spent). */
  readonly exclusive?: (<T>(work: () => Promise<T>) => Promise<T>) | undefined;
  /** The whole run's recorded usage (the gate's own when it runs alone). */
  readonly runUsage: () => TokenUsage;
  /** Keeps an attempt's record, once. */
  readonly record: (record: AttemptRecord) => void;
  /** Every recorded attempt, for errors. */
  readonly attempts: () => readonly AttemptRecord[];
  /** Reports a gate event; must not throw. */
  readonly report: (event: GateEvent) => void;
  /** The result of an accepted attempt. */
  readonly accept: (attempted: TAttempted, attempt: number) => TResult;
  /** A degraded value for a `fallback` decision (`undefined`: none applies); without it, `fallback` stops. */
  readonly fallback?: ((request: FallbackRequest<TResponse>) => Promise<{ readonly value: TResult } | undefined>) | undefined;
  /** The result of a stop that ends this call with an outcome rather than failing (a tool call's `redundant`, ...). */
  readonly stopped?: ((decision: FailFastDecision, attempt: number) => TResult | undefined) | undefined;
}

/**
 * The one attempt loop, for a step's answer, a tool call's re-asks and `runGate` alike. Each
 * attempt reads top to bottom: PreCheck (admit, wait or stop) → the call and its judge → noted
 * in the gate's memory (`validation.failed`) → decide → recorded once, frozen → applied → carried out.
 * @throws {ReliabilityFailFastError} when the policy stops.
 * @throws {AbortedError} when the signal aborts.
 */
export async function runAttempts<TResponse, TValue, TAttempted extends Attempted<TResponse, TValue>, TResult>(driver: AttemptDriver<TResponse, TValue, TAttempted, TResult>): Promise<TResult> {
  const memory = startGate(driver.settings, driver.initial);
  if (driver.continueFrom !== undefined) applyDecision(memory, { type: 'continue-output', partial: driver.continueFrom, events: [] });
  const { signal } = driver;
  for (let attempt = 1; ; attempt++) {
    if (signal?.aborted) throw AbortedError.fromSignal(signal);
    const attempted = await makeAttempt(driver, memory, attempt);
    const { judged, usage, via } = attempted;
    const failed = noteAttempt(memory, attempt, judged, usage, via);
    if (judged.errorKind === 'aborted') {
      driver.record(recordOf(memory, attempt, judged, usage, via));
      throw abortedError(judged, signal);
    }
    if (failed) driver.report(failed);
    // The run's usage with this attempt's, added up only when a rule or a fallback reads it.
    let added: TokenUsage | undefined;
    const runUsage = () => (added ??= addUsage(driver.runUsage(), usage));
    const decided = decide(memory, attempt, judged, runUsage, signal);
    const decision = decided instanceof Promise ? await recordingOnThrow(decided, () => driver.record(recordOf(memory, attempt, judged, usage, via))) : decided;
    driver.record(recordOf(memory, attempt, judged, usage, via, decision.rejection));
    for (const event of decision.events) driver.report(event);
    // A plain accept changes nothing: the memory is left as it is.
    if (decision.type !== 'accept' || decision.rejection) applyDecision(memory, decision);
    switch (decision.type) {
      case 'accept':
        return driver.accept(attempted, attempt);
      case 'retry':
      case 'retry-other':
        if (decision.delayMs > 0 || signal?.aborted) await sleep(decision.delayMs, signal);
        continue;
      case 'continue-output':
        // Cut at the token limit: the next attempt continues the cut output instead of regenerating it.
        continue;
      case 'fallback':
        return fallback(driver, memory, attempt, judged, decision, runUsage());
      case 'fail-fast': {
        const outcome = driver.stopped?.(decision, attempt);
        if (outcome !== undefined) return outcome;
        throw failFastError(memory, attempt, decision, driver.attempts());
      }
      default:
        return unreachableDecision(decision);
    }
  }
}

/** Waits for an asynchronous decision; an abort meanwhile still records the attempt before it ends the loop. */
function recordingOnThrow(decided: Promise<Decision>, record: () => void): Promise<Decision> {
  return decided.catch((error: unknown) => {
    record();
    throw error;
  });
}

/** Makes attempt `attempt`: with PreCheck rules, admitted first (one run's calls at a time when the driver is `exclusive`). */
function makeAttempt<TResponse, TValue, TAttempted extends Attempted<TResponse, TValue>, TResult>(driver: AttemptDriver<TResponse, TValue, TAttempted, TResult>, memory: GateMemory<TResponse>, attempt: number): Promise<TAttempted> {
  if (memory.settings.preCheck.length === 0) return driver.attempt(memory, attempt);
  return driver.exclusive ? driver.exclusive(() => admitted(driver, memory, attempt)) : admitted(driver, memory, attempt);
}

/** PreCheck, waiting where a rule says so, then the attempt; a stop ends the loop. */
async function admitted<TResponse, TValue, TAttempted extends Attempted<TResponse, TValue>, TResult>(driver: AttemptDriver<TResponse, TValue, TAttempted, TResult>, memory: GateMemory<TResponse>, attempt: number): Promise<TAttempted> {
  for (let from = 0; ; ) {
    const admission = await preCheck(memory, attempt, driver.runUsage(), driver.signal, from);
    if (admission.type === 'admit') return driver.attempt(memory, attempt);
    for (const event of admission.events) driver.report(event);
    if (admission.type === 'fail-fast') throw failFastError(memory, attempt, admission, driver.attempts());
    await sleep(admission.delayMs, driver.signal);
    from = admission.next;
  }
}

/** Carries out `fallback`: the driver's value, else the stop it replaces (or `fallback-failed`). */
async function fallback<TResponse, TValue, TAttempted extends Attempted<TResponse, TValue>, TResult>(
  driver: AttemptDriver<TResponse, TValue, TAttempted, TResult>,
  memory: GateMemory<TResponse>,
  attempt: number,
  judged: Judged<TResponse, TValue>,
  decision: Extract<Decision, { type: 'fallback' }>,
  runUsage: TokenUsage,
): Promise<TResult> {
  const halt = (stopped: FailFastDecision) => {
    // A replaced stop's other events were reported with the decision.
    for (const event of stopped.events) if (event.type === 'reliability.fail-fast') driver.report(event);
    return failFastError(memory, attempt, stopped, driver.attempts());
  };
  if (!driver.fallback) throw halt(decision.instead ?? stop(attempt, judged.errorKind, { kind: decision.rule, label: 'a rule chose fallback but none is configured', phase: 'post-decide' }));
  const reason = decision.instead ? `${decision.rule}: ${failFastError(memory, attempt, decision.instead, []).message}` : 'a rule chose fallback';
  let produced: { readonly value: TResult } | undefined;
  try {
    produced = await driver.fallback({ scope: scopeOf(memory, attempt, runUsage, driver.signal, judged), lastFailure: memory.lastFailure, reason, rule: decision.rule });
  } catch (error) {
    rethrowIfAborted(driver.signal, error);
    throw halt(stop(attempt, judged.errorKind, { kind: 'fallback-failed', label: decision.rule, phase: 'post-decide', cause: error }));
  }
  if (!produced) throw halt(decision.instead ?? stop(attempt, judged.errorKind, { kind: 'fallback-failed', label: decision.rule, phase: 'post-decide' }));
  driver.report(fallbackRecovered(memory, attempt));
  return produced.value;
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

/**
 * Notes attempt `attempt` in the gate's memory (its summary, its usage and, for a validation
 * failure, its signature) before the policy decides on it. Returns `validation.failed` for a
 * validation failure, to report before any rule runs. `via` says the output was a patch applied
 * to the rejected value or a continuation joined to a cut output.
 */
export function noteAttempt<TResponse, TValue>(memory: GateMemory<TResponse>, attempt: number, judged: Judged<TResponse, TValue>, usage: TokenUsage, via?: AttemptRecord['via']): ValidationFailedEvent | undefined {
  const { errorKind, verdict } = judged;
  // The first attempt's usage is the gate's: nothing to add it to.
  memory.usage = memory.usage === ZERO_USAGE ? usage : addUsage(memory.usage, usage);
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
  usage: TokenUsage,
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
    status: rejection ? 'invalid' : judged.errorKind === 'ok' ? 'valid' : failure ? 'invalid' : 'error',
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

/** The error an aborted attempt ends its gate with (never retried). */
function abortedError(judged: Pick<Judged<unknown, unknown>, 'thrown'>, signal: AbortSignal | undefined): AbortedError {
  return signal?.aborted ? AbortedError.fromSignal(signal) : new AbortedError({ cause: judged.thrown });
}

/**
 * Makes one call and judges its answer. Throwing is a provider failure, classified; resolving to
 * `undefined` or `null`, or throwing either, is a `bad-response`. The call and an asynchronous
 * judge are raced against `signal`. Not an async function: the attempt waits once for the call
 * (and once more only for an asynchronous judge), with no extra frame held while the call runs.
 */
export function callAndJudge<TResponse, TValue>(invoke: () => Promise<TResponse>, judge: Judge<TResponse, TValue>, signal: AbortSignal | undefined): Promise<Judged<TResponse, TValue>> {
  const started = performance.now();
  let called: Promise<TResponse>;
  try {
    called = signal ? raceSignal(invoke(), signal) : invoke();
  } catch (thrown) {
    return Promise.resolve(failed(signal, started, thrown));
  }
  return called.then(
    (response) => answered(judge, signal, response, started),
    (thrown: unknown) => failed(signal, started, thrown),
  );
}

/** A call that threw (or answered nothing): classified, with no response. */
function failed<TResponse, TValue>(signal: AbortSignal | undefined, started: number, thrown: unknown): Judged<TResponse, TValue> {
  const error = thrown === undefined || thrown === null ? new BadResponseError({ message: `the call threw ${String(thrown)}` }) : thrown;
  const classified = classifyError(error);
  const errorKind = signal?.aborted ? 'aborted' : classified.errorKind;
  return { response: undefined, thrown: error, verdict: undefined, validatorError: undefined, errorKind, retryAfterMs: classified.retryAfterMs, latencyMs: performance.now() - started };
}

type Answered<TResponse> = Pick<Judged<TResponse, never>, 'response' | 'thrown' | 'retryAfterMs' | 'latencyMs'>;

function answered<TResponse, TValue>(judge: Judge<TResponse, TValue>, signal: AbortSignal | undefined, response: TResponse, started: number): Judged<TResponse, TValue> | Promise<Judged<TResponse, TValue>> {
  if (response === undefined || response === null) return failed(signal, started, new BadResponseError({ message: `the call returned ${String(response)}` }));
  const base: Answered<TResponse> = { response, thrown: undefined, retryAfterMs: undefined, latencyMs: performance.now() - started };
  let judged: GateVerdict<TValue> | Promise<GateVerdict<TValue>>;
  try {
    judged = judge(response);
  } catch (error) {
    return judgeFailed(signal, base, error);
  }
  // An async judge that never settles cannot hold the run.
  if (judged instanceof Promise) {
    return raceSignal(judged, signal).then(
      (verdict) => withVerdict(signal, base, verdict),
      (error: unknown) => judgeFailed(signal, base, error),
    );
  }
  return withVerdict(signal, base, judged);
}

function withVerdict<TResponse, TValue>(signal: AbortSignal | undefined, base: Answered<TResponse>, verdict: GateVerdict<TValue>): Judged<TResponse, TValue> {
  try {
    const errorKind = verdict.status === 'valid' ? 'ok' : verdict.status === 'invalid' ? (verdict.failure.stage === 'json-parse' ? 'parse-fail' : 'schema-fail') : verdict.errorKind;
    // Field by field: a spread here is the costliest line of an attempt.
    return { response: base.response, thrown: base.thrown, retryAfterMs: base.retryAfterMs, latencyMs: base.latencyMs, verdict, validatorError: undefined, errorKind };
  } catch (error) {
    return judgeFailed(signal, base, error);
  }
}

function judgeFailed<TResponse, TValue>(signal: AbortSignal | undefined, base: Answered<TResponse>, error: unknown): Judged<TResponse, TValue> {
  if (signal?.aborted || AbortedError.isInstance(error)) return { ...base, verdict: undefined, validatorError: undefined, thrown: error, errorKind: 'aborted' };
  return { ...base, verdict: undefined, validatorError: error, errorKind: 'unknown' };
}
