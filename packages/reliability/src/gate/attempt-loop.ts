import { AbortedError } from '../errors/aborted-error';
import type { ValidationFailure } from '../errors/validation-failure';
import { rethrowIfAborted } from '../race-signal';
import { sleep } from '../sleep';
import { addUsage, type UsageTotals } from '../usage';
import { applyDecision } from './apply-decision';
import type { AttemptRecord } from './attempt-record';
import { abortedError, type Judged } from './call-and-judge';
import { type Decision, type FailFastDecision, unreachableDecision } from './decision';
import type { GateEvent } from './gate-event';
import { type GateMemory, noteAttempt, recordOf, startGate } from './gate-memory';
import type { GateFeedback } from './gate-options';
import type { GateSettings } from './gate-settings';
import { fallbackRecovered, decide } from './policy';
import { preCheck } from './pre-check';
import { failFastError, stop } from './rule-match';
import type { ReliabilityScope } from './scope';
import { scopeOf } from './scope-of';

/** One attempt made and judged: what the loop notes, records and decides on. */
export interface Attempted<TResponse, TValue> {
  readonly judged: Judged<TResponse, TValue>;
  /** Tokens (and cost) of the attempt; zero for a call that failed before answering. */
  readonly usage: UsageTotals;
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
 * default driver around any call.
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
  readonly runUsage: () => UsageTotals;
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
  const { signal, report } = driver;
  const checked = memory.settings.preCheck.length > 0;
  for (let attempt = 1; ; attempt++) {
    if (signal?.aborted) throw AbortedError.fromSignal(signal);
    const call = () => (checked ? admitted(driver, memory, attempt) : driver.attempt(memory, attempt));
    const attempted = await (checked && driver.exclusive ? driver.exclusive(call) : call());
    const { judged, usage, via } = attempted;
    const failed = noteAttempt(memory, attempt, judged, usage, via);
    if (judged.errorKind === 'aborted') {
      driver.record(recordOf(memory, attempt, judged, usage, via));
      throw abortedError(judged, signal);
    }
    if (failed) report(failed);
    const runUsage = addUsage(driver.runUsage(), usage);
    const decided = decide(memory, attempt, judged, runUsage, signal);
    const decision = decided instanceof Promise ? await recordingOnThrow(decided, () => driver.record(recordOf(memory, attempt, judged, usage, via))) : decided;
    driver.record(recordOf(memory, attempt, judged, usage, via, decision.rejection));
    decision.events.forEach(report);
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
        return fallback(driver, memory, attempt, judged, decision, runUsage);
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

/** PreCheck, waiting where a rule says so, then the attempt; a stop ends the loop. */
async function admitted<TResponse, TValue, TAttempted extends Attempted<TResponse, TValue>, TResult>(driver: AttemptDriver<TResponse, TValue, TAttempted, TResult>, memory: GateMemory<TResponse>, attempt: number): Promise<TAttempted> {
  for (let from = 0; ; ) {
    const admission = await preCheck(memory, attempt, driver.runUsage(), driver.signal, from);
    if (admission.type === 'admit') return driver.attempt(memory, attempt);
    admission.events.forEach(driver.report);
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
  runUsage: UsageTotals,
): Promise<TResult> {
  const halt = (stopped: FailFastDecision) => {
    // A replaced stop's other events were reported with the decision.
    stopped.events.filter((event) => event.type === 'reliability.fail-fast').forEach(driver.report);
    return failFastError(memory, attempt, stopped, driver.attempts());
  };
  if (!driver.fallback) throw halt(decision.instead ?? stop(attempt, judged.errorKind, { kind: decision.kind, label: 'a rule chose fallback but none is configured', phase: 'post-decide' }));
  const reason = decision.instead ? `${decision.kind}: ${failFastError(memory, attempt, decision.instead, []).message}` : 'a rule chose fallback';
  let produced: { readonly value: TResult } | undefined;
  try {
    produced = await driver.fallback({ scope: scopeOf(memory, attempt, runUsage, driver.signal, judged), lastFailure: memory.lastFailure, reason, rule: decision.kind });
  } catch (error) {
    rethrowIfAborted(driver.signal, error);
    throw halt(stop(attempt, judged.errorKind, { kind: 'fallback-failed', label: decision.kind, phase: 'post-decide', cause: error }));
  }
  if (!produced) throw halt(decision.instead ?? stop(attempt, judged.errorKind, { kind: 'fallback-failed', label: decision.kind, phase: 'post-decide' }));
  driver.report(fallbackRecovered(memory, attempt));
  return produced.value;
}
