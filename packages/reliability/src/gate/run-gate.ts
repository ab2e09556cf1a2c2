import { AbortedError } from '../errors/aborted-error';
import { applyDecision } from './apply-decision';
import { decide, preCheck } from './decide';
import { failFast, type GateRun, startGateRun } from './gate-run';
import type { GateOptions, GateResult } from './gate-options';
import { type AttemptOutcome, makeAttempt } from './make-attempt';

/**
 * Runs one model call through the reliability gate: PreCheck rules before every attempt, the
 * call, validation, the `validation.failed` event, then PostDecide rules deciding
 * ok / retry (with feedback and backoff) / retry-other / fallback / fail-fast. Every attempt is
 * recorded and counted. Usable around any model call, inside an agent or not.
 *
 * Each turn of the loop is three plain steps: {@link makeAttempt} (what happened),
 * {@link decide} (what the rules say), {@link applyDecision} (a result, a stop, or the next attempt).
 * The decide and apply steps return plain values when no rule or callback is asynchronous, so the
 * usual attempt waits once, for the call.
 *
 * @throws {ReliabilityFailFastError} when a rule fails fast, a rule throws, or the attempt cap is hit.
 * @throws {AbortedError} when the signal aborts (never retried).
 * @throws {TypeError} for a rule that is not one (no `when` function, an unknown decision) or a
 * PreCheck rule that decides anything but continue or fail-fast.
 */
export async function runGate<TResponse, TValue = TResponse>(options: GateOptions<TResponse, TValue>): Promise<GateResult<TResponse, TValue>> {
  const run = startGateRun(options);
  for (let attempt = 1; ; attempt++) {
    if (run.signal?.aborted) throw AbortedError.fromSignal(run.signal);
    // The cap holds whatever the rules decide: no path makes an attempt past it.
    if (attempt > run.maxAttempts) failFast(run, { kind: 'loop-cap', label: `more than ${run.maxAttempts} attempts`, phase: 'loop-cap', attempt: attempt - 1, errorKind: run.lastKind });
    const exclusive = run.options.exclusive;
    // With a shared lock, PreCheck and the call happen together, so no sibling spends in between.
    const outcome = exclusive ? await exclusive(() => checkAndCall(run, attempt)) : await checkAndCall(run, attempt);
    const decided = decide(run, outcome);
    const applied = applyDecision(run, outcome, decided instanceof Promise ? await decided : decided);
    const result = applied instanceof Promise ? await applied : applied;
    if (result) return result;
  }
}

/** PreCheck (skipped without PreCheck rules), then the attempt. */
function checkAndCall<TResponse, TValue>(run: GateRun<TResponse, TValue>, attempt: number): Promise<AttemptOutcome<TResponse, TValue>> {
  if (run.preCheck.length === 0) return makeAttempt(run, attempt);
  return preCheck(run, attempt).then(() => makeAttempt(run, attempt));
}
