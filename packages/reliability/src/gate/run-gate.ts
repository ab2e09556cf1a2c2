import { AbortedError } from '../errors/aborted-error';
import { applyDecision } from './apply-decision';
import { decide, preCheck } from './decide';
import { startGateRun } from './gate-run';
import type { GateOptions, GateResult } from './gate-options';
import { makeAttempt } from './make-attempt';

/**
 * Runs one model call through the reliability gate: PreCheck rules before every attempt, the
 * call, validation, the `validation.failed` event, then PostDecide rules deciding
 * ok / retry (with feedback and backoff) / retry-other / fallback / fail-fast. Every attempt is
 * recorded and counted. Usable around any model call, inside an agent or not.
 *
 * Each turn of the loop is three plain steps: {@link makeAttempt} (what happened),
 * {@link decide} (what the rules say), {@link applyDecision} (a result, a stop, or the next attempt).
 *
 * @throws {ReliabilityFailFastError} when a rule fails fast, a rule throws, or the attempt cap is hit.
 * @throws {AbortedError} when the signal aborts (never retried).
 * @throws {TypeError} for a PreCheck rule that decides anything but continue or fail-fast.
 */
export async function runGate<TResponse, TValue = TResponse>(options: GateOptions<TResponse, TValue>): Promise<GateResult<TResponse, TValue>> {
  const run = startGateRun(options);
  for (let attempt = 1; ; attempt++) {
    if (run.signal?.aborted) throw AbortedError.fromSignal(run.signal);
    const checkAndCall = async () => {
      await preCheck(run, attempt);
      return makeAttempt(run, attempt);
    };
    // With a shared lock, PreCheck and the call happen together, so no sibling spends in between.
    const outcome = run.options.exclusive ? await run.options.exclusive(checkAndCall) : await checkAndCall();
    const decision = await decide(run, outcome);
    const result = await applyDecision(run, outcome, decision);
    if (result) return result;
  }
}
