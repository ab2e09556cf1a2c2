import { GATE_DEFAULTS } from '../defaults';
import { isPromiseLike, raceSignal } from '../race-signal';
import { addUsage, type TokenUsage, ZERO_USAGE } from '../usage';
import { type Attempted, callAndJudge, runAttempts } from './attempt-loop';
import type { AttemptRecord } from './attempt-record';
import { checkRules } from './check-rules';
import { defaultRules } from './default-rules';
import { hasActionLoopRules } from '../rules/action-loop-rules';
import type { GateEvent } from './gate-event';
import type { GateAttemptContext, GateOptions, GateResult, GateVerdict } from './gate-options';
import type { GateSettings } from './gate-settings';
import type { ReliabilityRule } from './rule';

/** The default rules are stateless, so one set serves every gate run (and one without loop rules, for runs that list their own). */
const SHARED_DEFAULT_RULES: readonly ReliabilityRule<unknown>[] = Object.freeze(defaultRules());
const SHARED_DEFAULT_RULES_WITHOUT_LOOPS: readonly ReliabilityRule<unknown>[] = Object.freeze(defaultRules({ actionLoops: false }));

/** The policy of a standalone gate run, resolved from its options. */
function settingsOf<TResponse, TValue>(options: GateOptions<TResponse, TValue>): GateSettings<TResponse> {
  const preCheckRules = options.preCheck ?? [];
  const postDecide = options.postDecide ?? [];
  checkRules(preCheckRules, postDecide);
  const limits = options.limits ?? {};
  const template = options.feedbackForLLM;
  return {
    preCheck: preCheckRules,
    rules: options.defaults === false ? postDecide : postDecide.concat((hasActionLoopRules(postDecide) ? SHARED_DEFAULT_RULES_WITHOUT_LOOPS : SHARED_DEFAULT_RULES) as ReliabilityRule<TResponse>[]),
    maxAttempts: limits.maxAttempts ?? GATE_DEFAULTS.maxAttempts,
    maxRetryAfterMs: limits.maxRetryAfterMs ?? GATE_DEFAULTS.maxRetryAfterMs,
    providerCount: options.providerCount ?? 1,
    feedback: template === false ? false : { template, maxTokens: limits.maxFeedbackTokens ?? GATE_DEFAULTS.maxFeedbackTokens },
    maxRawOutputChars: limits.maxRawOutputChars ?? GATE_DEFAULTS.maxRawOutputChars,
    step: 0,
    callPurpose: 'step',
  };
}

const acceptAll = <TResponse, TValue>(response: TResponse): GateVerdict<TValue> => ({ status: 'valid', value: response as unknown as TValue });

/**
 * Runs one model call through the reliability gate, around any call: PreCheck rules, the call,
 * validation, `validation.failed`, then the policy deciding accept / retry (with feedback and
 * backoff) / retry-other / fallback / fail-fast. Every attempt is recorded and counted. It is the
 * one attempt loop an agent's calls go through, with a default driver: the caller's `call`,
 * `validate` and `usageOf`, its own list of attempts, `onEvent` as the report.
 *
 * @throws {ReliabilityFailFastError} when a rule fails fast, a rule throws, or the attempt cap is hit.
 * @throws {AbortedError} when the signal aborts (never retried).
 * @throws {TypeError} for a rule that is not one (no `when` function, an unknown decision) or a
 * PreCheck rule that decides anything but continue or fail-fast.
 */
export function runGate<TResponse, TValue = TResponse>(options: GateOptions<TResponse, TValue>): Promise<GateResult<TResponse, TValue>> {
  let settings: GateSettings<TResponse>;
  try {
    settings = settingsOf(options);
  } catch (error) {
    return Promise.reject(error);
  }
  const attempts: AttemptRecord[] = [];
  let usage: TokenUsage = ZERO_USAGE;
  const { signal } = options;
  const validate = options.validate ?? acceptAll;
  const fallback = options.fallback;
  type Made = Attempted<TResponse, TValue>;
  return runAttempts<TResponse, TValue, Made, GateResult<TResponse, TValue>>({
    settings,
    signal,
    attempt: (memory, attempt) => {
      const context: GateAttemptContext = { attempt, providerIndex: memory.providerIndex, ...(memory.feedback ? { feedback: memory.feedback } : {}), ...(signal ? { signal } : {}) };
      return callAndJudge(
        () => options.call(context),
        (response) => {
          const verdict = validate(response, context);
          // A thenable that is not a promise is waited for like one.
          return isPromiseLike<GateVerdict<TValue>>(verdict) && !(verdict instanceof Promise) ? Promise.resolve(verdict) : verdict;
        },
        signal,
      ).then((judged) => ({ judged, usage: judged.response === undefined ? ZERO_USAGE : (options.usageOf?.(judged.response, context) ?? ZERO_USAGE) }));
    },
    runUsage: () => usage,
    record: (record) => {
      attempts.push(record);
      usage = addUsage(usage, record.usage);
    },
    attempts: () => attempts,
    report: (event: GateEvent) => {
      try {
        options.onEvent?.(event);
      } catch {
        // Observers never change the run.
      }
    },
    accept: ({ judged }) => {
      const verdict = judged.verdict;
      const value = (verdict?.status === 'valid' ? verdict.value : verdict?.status === 'invalid' ? verdict.partialValue : undefined) as TValue;
      const result: { -readonly [K in keyof GateResult<TResponse, TValue>]: GateResult<TResponse, TValue>[K] } = { value, via: 'model', attempts, usage };
      if (judged.response !== undefined) result.response = judged.response;
      if (verdict?.status === 'invalid') result.acceptedIssues = verdict.failure.issues;
      return result;
    },
    fallback: fallback
      ? async ({ scope, lastFailure }) => {
          const value = await raceSignal(fallback(scope, lastFailure), signal);
          return { value: { value, via: 'fallback' as const, attempts, usage } };
        }
      : undefined,
  });
}
