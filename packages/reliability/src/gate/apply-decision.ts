import { reduceError } from '../errors/keel-error';
import { raceSignal, rethrowIfAborted } from '../race-signal';
import { sleep } from '../sleep';
import type { AttemptRecord } from './attempt-record';
import { buildFeedback } from './build-feedback';
import type { Decision } from './decide';
import { emitGateEvent, failFast, type GateRun, type Mutable } from './gate-run';
import type { GateResult } from './gate-options';
import type { AttemptOutcome } from './make-attempt';
import type { ReliabilityRule } from './rule';
import { resolveValue } from './scope-value';

/** Attempts before the last one that succeeded (0 on the usual path, where only the last is ok). */
function okBeforeLast(attempts: readonly AttemptRecord[]): number {
  let ok = 0;
  for (let index = 0; index < attempts.length - 1; index++) if ((attempts[index] as AttemptRecord).status === 'ok') ok++;
  return ok;
}

/** Ends the gate run with `value`; reports `reliability.recovered` when earlier attempts failed or a fallback stood in. */
function accept<TResponse, TValue>(run: GateRun<TResponse, TValue>, outcome: AttemptOutcome<TResponse, TValue>, value: TValue, via: 'model' | 'fallback'): GateResult<TResponse, TValue> {
  const { attempt, kind, response } = outcome;
  const priorFailures = attempt - 1 - okBeforeLast(run.attempts);
  if (priorFailures > 0 || via === 'fallback') {
    emitGateEvent(run, { type: 'reliability.recovered', attempt, priorFailures, via: via === 'fallback' ? 'fallback' : run.lastRecovery });
  }
  const result: Mutable<GateResult<TResponse, TValue>> = { value, via, attempts: run.attempts, usage: run.usage };
  if (response !== undefined && via !== 'fallback') result.response = response;
  if (kind !== 'ok') result.acceptedIssues = outcome.issues;
  return result;
}

/**
 * Carries out a decision: a result (`ok`, `fallback`), a stop (`fail-fast`, or a retry the caps
 * forbid), or the preparation of the next attempt (`retry`, `retry-other`: provider switch,
 * feedback, backoff) — then `undefined`, and the gate makes that attempt. An accepted answer and
 * a stop are plain (no promise to wait for); a fallback and a retry are asynchronous.
 * @throws {ReliabilityFailFastError} on a stop.
 */
export function applyDecision<TResponse, TValue>(
  run: GateRun<TResponse, TValue>,
  outcome: AttemptOutcome<TResponse, TValue>,
  { decision, rule }: Decision<TResponse>,
): GateResult<TResponse, TValue> | Promise<GateResult<TResponse, TValue> | undefined> {
  const { attempt, kind, verdict, cause } = outcome;
  const stop = (kindName: string, label: string | undefined, error: unknown = cause): never =>
    failFast(run, { kind: kindName, label, phase: 'post-decide', attempt, errorKind: kind, cause: error });
  switch (decision) {
    case 'ok':
    case 'continue':
      if (verdict?.status === 'accept') return accept(run, outcome, verdict.value, 'model');
      if (verdict?.status === 'invalid') return accept(run, outcome, verdict.partialValue as TValue, 'model');
      // A rule accepted a failed call or a truncated/refused answer: there is no value to give.
      if (decision === 'ok') return accept(run, outcome, undefined as TValue, 'model');
      return stop(rule?.kind ?? 'unhandled-failure', rule?.label);
    case 'fail-fast':
      return stop(rule?.kind ?? 'unhandled-failure', rule?.label);
    case 'fallback':
      return applyFallback(run, outcome, rule, stop);
    case 'retry-other':
    case 'retry':
      return prepareRetry(run, outcome, decision, rule as ReliabilityRule<TResponse>).then(() => undefined);
    default:
      // Rules are checked when the gate starts; a decision that changed since is a stop, never a loop.
      return stop('rule-error', rule?.kind);
  }
}

/** A `fallback` decision: the configured fallback's value, or a stop when there is none or it fails. */
async function applyFallback<TResponse, TValue>(
  run: GateRun<TResponse, TValue>,
  outcome: AttemptOutcome<TResponse, TValue>,
  rule: ReliabilityRule<TResponse> | undefined,
  stop: (kindName: string, label: string | undefined, error?: unknown) => never,
): Promise<GateResult<TResponse, TValue>> {
  const fallback = run.options.fallback;
  if (!fallback) return stop(rule?.kind ?? 'fallback', 'a rule chose fallback but none is configured');
  let value: TValue;
  try {
    value = await raceSignal(fallback(outcome.scope, run.lastFailure), run.signal);
  } catch (error) {
    rethrowIfAborted(run.signal, error);
    return stop('fallback-failed', rule?.kind, error);
  }
  return accept(run, outcome, value, 'fallback');
}

/** Checks the caps, moves provider on `retry-other`, builds feedback, waits the backoff, reports `reliability.retry`. */
async function prepareRetry<TResponse, TValue>(
  run: GateRun<TResponse, TValue>,
  outcome: AttemptOutcome<TResponse, TValue>,
  decision: 'retry' | 'retry-other',
  rule: ReliabilityRule<TResponse>,
): Promise<void> {
  const { attempt, kind, failure, scope, cause, retryAfterMs } = outcome;
  const stop = (kindName: string, label: string, phase: 'post-decide' | 'loop-cap' | 'rule-error', error: unknown = cause): never =>
    failFast(run, { kind: kindName, label, phase, attempt, errorKind: kind, cause: error });
  // The cap is checked before any wait: a retry that cannot happen is not waited for.
  if (attempt >= run.maxAttempts) stop('loop-cap', `more than ${run.maxAttempts} attempts`, 'loop-cap');
  if (decision === 'retry-other') {
    if (run.providerIndex + 1 >= run.providerCount) stop(rule.kind, 'no other provider is configured', 'post-decide');
    run.providerIndex++;
  }
  if (failure) {
    run.feedback = run.options.feedback === false ? undefined : await buildFeedback({ failure, rule, scope, options: run.options, emit: (event) => emitGateEvent(run, event) });
    run.lastRecovery = run.feedback ? 'feedback' : 'retry';
  }
  if (decision === 'retry-other') run.lastRecovery = 'retry-other';
  else if (!failure) run.lastRecovery = 'retry';
  let delayMs = 0;
  if (decision === 'retry') {
    if (retryAfterMs !== undefined) delayMs = Math.min(retryAfterMs, run.maxRetryAfterMs);
    else {
      try {
        const backoff = await raceSignal(resolveValue(rule.backoff, scope), run.signal);
        // A backoff that is not a finite number waits nothing rather than forever.
        delayMs = typeof backoff === 'number' && Number.isFinite(backoff) ? Math.max(0, backoff) : 0;
      } catch (error) {
        rethrowIfAborted(run.signal, error);
        emitGateEvent(run, { type: 'reliability.rule-error', phase: 'post-decide', ruleKind: rule.kind, part: 'backoff', message: reduceError(error).message });
        stop('rule-error', rule.kind, 'rule-error', error);
      }
    }
  }
  emitGateEvent(run, {
    type: 'reliability.retry',
    attempt,
    kind: rule.kind,
    errorKind: kind,
    delayMs,
    decision,
    ...(failure && run.feedback ? { feedback: run.feedback.text } : {}),
  });
  if (delayMs > 0 || run.signal?.aborted) await sleep(delayMs, run.signal);
}
