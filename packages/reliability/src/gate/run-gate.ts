import { AbortedError } from '../errors/aborted-error';
import { raceSignal, rethrowIfAborted } from '../race-signal';
import { ZERO_USAGE } from '../usage';
import { abortedError, callAndJudge } from './call-and-judge';
import { decide, failFastError, fallbackRecovered, preCheck, retryAfter, stop } from './decide';
import { unreachableDecision } from './decision';
import { defaultRules } from './default-rules';
import type { GateEvent } from './gate-event';
import type { GateAttemptContext, GateOptions, GateResult, GateVerdict } from './gate-options';
import { checkRules, type GateSettings, recordAttempt, scopeOf, startGate } from './gate-state';
import type { AttemptRecord } from './attempt-record';
import type { ReliabilityRule } from './rule';

/** The default rules are stateless, so one set serves every gate run. */
const SHARED_DEFAULT_RULES: readonly ReliabilityRule<unknown>[] = Object.freeze(defaultRules());

/** The policy of a standalone gate run, resolved from its options. */
function settingsOf<TResponse, TValue>(options: GateOptions<TResponse, TValue>): GateSettings<TResponse> {
  const preCheckRules = options.preCheck ?? [];
  const postDecide = options.postDecide ?? [];
  checkRules(preCheckRules, postDecide);
  const limits = options.limits ?? {};
  const template = options.feedbackForLLM;
  return {
    preCheck: preCheckRules,
    rules: options.defaults === false ? postDecide : postDecide.concat(SHARED_DEFAULT_RULES as ReliabilityRule<TResponse>[]),
    maxAttempts: limits.maxAttempts ?? 10,
    maxRetryAfterMs: limits.maxRetryAfterMs ?? 30_000,
    providerCount: options.providerCount ?? 1,
    feedback: template === false ? false : { template, maxTokens: limits.maxFeedbackTokens ?? 4000 },
    maxRawOutputChars: limits.maxRawOutputChars ?? 16_384,
    step: 0,
    callPurpose: 'step',
  };
}

const acceptAll = <TResponse, TValue>(response: TResponse): GateVerdict<TValue> => ({ status: 'accept', value: response as unknown as TValue });

/**
 * Runs one model call through the reliability gate, around any call: PreCheck rules, the call,
 * validation, `validation.failed`, then the policy ({@link decide}) deciding accept / retry (with
 * feedback and backoff) / retry-other / fallback / fail-fast. Every attempt is recorded and counted.
 *
 * @throws {ReliabilityFailFastError} when a rule fails fast, a rule throws, or the attempt cap is hit.
 * @throws {AbortedError} when the signal aborts (never retried).
 * @throws {TypeError} for a rule that is not one (no `when` function, an unknown decision) or a
 * PreCheck rule that decides anything but continue or fail-fast.
 */
export async function runGate<TResponse, TValue = TResponse>(options: GateOptions<TResponse, TValue>): Promise<GateResult<TResponse, TValue>> {
  const gate = startGate(settingsOf(options));
  const attempts: AttemptRecord[] = [];
  const { signal } = options;
  const report = (event: GateEvent) => {
    try {
      options.onEvent?.(event);
    } catch {
      // Observers never change the run.
    }
  };
  for (let attempt = 1; ; attempt++) {
    if (signal?.aborted) throw AbortedError.fromSignal(signal);
    const stopped = await preCheck(gate, attempt, gate.usage, signal, report);
    if (stopped) {
      stopped.events.forEach(report);
      throw failFastError(gate, attempt, stopped, attempts);
    }
    const context: GateAttemptContext = { attempt, providerIndex: gate.providerIndex, ...(gate.feedback ? { feedback: gate.feedback } : {}), ...(signal ? { signal } : {}) };
    const judged = await callAndJudge(() => options.call(context), (response) => (options.validate ?? acceptAll)(response, context), signal);
    const usage = judged.response === undefined ? ZERO_USAGE : (options.usageOf?.(judged.response, context) ?? ZERO_USAGE);
    const { record, event } = recordAttempt(gate, attempt, judged, usage);
    attempts.push(record);
    if (judged.kind === 'aborted') throw abortedError(judged, signal);
    if (event) report(event);
    const decision = await decide(gate, attempt, judged, gate.usage, signal);
    decision.events.forEach(report);
    switch (decision.type) {
      case 'accept': {
        const verdict = judged.verdict;
        const value = (verdict?.status === 'accept' ? verdict.value : verdict?.status === 'invalid' ? verdict.partialValue : undefined) as TValue;
        const result: { -readonly [K in keyof GateResult<TResponse, TValue>]: GateResult<TResponse, TValue>[K] } = { value, via: 'model', attempts: attempts, usage: gate.usage };
        if (judged.response !== undefined) result.response = judged.response;
        if (verdict?.status === 'invalid') result.acceptedIssues = verdict.failure.issues;
        return result;
      }
      case 'retry':
      case 'retry-other':
        await retryAfter(gate, decision, signal);
        continue;
      case 'fallback': {
        const halt = (fields: Parameters<typeof stop>[2]) => {
          const stopped = stop(attempt, judged.kind, fields);
          stopped.events.forEach(report);
          return failFastError(gate, attempt, stopped, attempts);
        };
        if (!options.fallback) throw halt({ kind: decision.kind, label: 'a rule chose fallback but none is configured', phase: 'post-decide' });
        try {
          const value = await raceSignal(options.fallback(scopeOf(gate, attempt, gate.usage, signal, judged), gate.lastFailure), signal);
          report(fallbackRecovered(gate, attempt));
          return { value, via: 'fallback', attempts: attempts, usage: gate.usage };
        } catch (error) {
          rethrowIfAborted(signal, error);
          throw halt({ kind: 'fallback-failed', label: decision.kind, phase: 'post-decide', cause: error });
        }
      }
      case 'continue-output': {
        // runGate's settings never turn continuation on (its response type is the caller's): a stop, never a loop.
        const stopped = stop(attempt, judged.kind, { kind: 'unhandled-failure', label: 'runGate does not continue cut output', phase: 'post-decide' });
        stopped.events.forEach(report);
        throw failFastError(gate, attempt, stopped, attempts);
      }
      case 'fail-fast':
        throw failFastError(gate, attempt, decision, attempts);
      default:
        return unreachableDecision(decision);
    }
  }
}
