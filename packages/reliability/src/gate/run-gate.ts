import { classifyError } from '../classify-error';
import type { ErrorKind } from '../error-kind';
import { AbortedError } from '../errors/aborted-error';
import { reduceError } from '../errors/keel-error';
import { type FailFastPhase, ReliabilityFailFastError } from '../errors/reliability-fail-fast-error';
import { defaultRules } from '../rules/transient-retry';
import { sleep } from '../sleep';
import { addUsage, type UsageTotals, ZERO_USAGE } from '../usage';
import { issueSignature, type ValidationIssue } from '../validation/issue';
import type { AttemptRecord } from './attempt-record';
import type { GateEvent, RecoveredEvent } from './gate-event';
import type { GateAttemptContext, GateFeedback, GateOptions, GateResult, GateVerdict } from './gate-options';
import { buildFeedback } from './build-feedback';
import type { ReliabilityRule } from './rule';
import { resolveValue } from './scope-value';
import type { AttemptSummary, ReliabilityScope } from './scope';

/** The default rules are stateless, so one set serves every gate run. */
const SHARED_DEFAULT_RULES: readonly ReliabilityRule<unknown>[] = Object.freeze(defaultRules());

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/** Attempts before the last one that succeeded (0 on the usual path, where only the last is ok). */
function okBeforeLast(attempts: readonly AttemptRecord[]): number {
  let ok = 0;
  for (let index = 0; index < attempts.length - 1; index++) if ((attempts[index] as AttemptRecord).status === 'ok') ok++;
  return ok;
}

interface FailFastFields {
  readonly kind: string;
  readonly label?: string | undefined;
  readonly phase: FailFastPhase;
  readonly attempt: number;
  readonly errorKind: ErrorKind;
  readonly cause?: unknown;
}

/**
 * Runs one model call through the reliability gate: PreCheck rules before every attempt, the
 * call, validation, the `validation.failed` event, then PostDecide rules deciding
 * ok / retry (with feedback and backoff) / retry-other / fallback / fail-fast. Every attempt is
 * recorded and counted. Usable around any model call, inside an agent or not.
 *
 * @throws {ReliabilityFailFastError} when a rule fails fast, a rule throws, or the attempt cap is hit.
 * @throws {AbortedError} when the signal aborts (never retried).
 */
export async function runGate<TResponse, TValue = TResponse>(options: GateOptions<TResponse, TValue>): Promise<GateResult<TResponse, TValue>> {
  const preCheck = options.preCheck ?? [];
  for (const rule of preCheck) {
    if (rule.then !== 'continue' && rule.then !== 'fail-fast') {
      throw new TypeError(`PreCheck rule "${rule.kind}" decides "${rule.then}"; PreCheck rules may only continue or fail-fast`);
    }
  }
  const rules = options.defaultRules === false ? (options.rules ?? []) : (options.rules ?? []).concat(SHARED_DEFAULT_RULES as ReliabilityRule<TResponse>[]);
  const maxAttempts = options.maxAttempts ?? 10;
  const maxRetryAfterMs = options.maxRetryAfterMs ?? 30_000;
  const providerCount = options.providerCount ?? 1;
  const classify = options.classify ?? classifyError;
  const signal = options.signal;
  const emit = (event: GateEvent) => {
    try {
      options.onEvent?.(event);
    } catch {
      // Observers never change the run.
    }
  };

  const attempts: AttemptRecord[] = [];
  const history: AttemptSummary[] = [];
  const validationErrorHistory: string[] = [];
  let usage: UsageTotals = ZERO_USAGE;
  let providerIndex = 0;
  let feedback: GateFeedback | undefined;
  let lastKind: ErrorKind = 'ok';
  let lastRecovery: RecoveredEvent['via'] = 'retry';
  let validationFailures = 0;

  const baseScope = (attempt: number, phase: ReliabilityScope['phase']): Mutable<ReliabilityScope<TResponse>> => {
    const scope: Mutable<ReliabilityScope<TResponse>> = {
      phase,
      attempt,
      providerIndex,
      providerCount,
      errorKind: phase === 'pre-check' ? lastKind : 'ok',
      latencyMs: 0,
      // Live views, read-only by type: a scope is valid during the rule call that receives it.
      validationErrorHistory,
      history,
      usage: { step: usage, run: options.runUsage ? addUsage(options.runUsage, usage) : usage },
      retries: attempt - 1,
    };
    if (signal) scope.signal = signal;
    return scope;
  };

  const failFast = ({ label, ...fields }: FailFastFields): never => {
    emit({ type: 'reliability.fail_fast', kind: fields.kind, ...(label === undefined ? {} : { label }), attempt: fields.attempt, errorKind: fields.errorKind, phase: fields.phase });
    throw new ReliabilityFailFastError({ ...fields, ...(label === undefined ? {} : { label }), attempts: [...(options.priorAttempts ?? []), ...attempts] });
  };

  const ruleError = (rule: ReliabilityRule<TResponse>, scope: ReliabilityScope<TResponse>, error: unknown): never => {
    emit({ type: 'reliability.rule_error', phase: scope.phase, ruleKind: rule.kind, part: 'when', message: reduceError(error).message });
    return failFast({ kind: 'rule-error', label: rule.kind, phase: 'rule-error', attempt: scope.attempt, errorKind: scope.errorKind, cause: error });
  };

  /** The first rule whose `when` matches; synchronous unless a `when` returns a promise. */
  const match = (
    list: readonly ReliabilityRule<TResponse>[],
    scope: ReliabilityScope<TResponse>,
    from = 0,
  ): ReliabilityRule<TResponse> | undefined | Promise<ReliabilityRule<TResponse> | undefined> => {
    for (let index = from; index < list.length; index++) {
      const rule = list[index] as ReliabilityRule<TResponse>;
      let answer: boolean | Promise<boolean>;
      try {
        answer = rule.when(scope);
      } catch (error) {
        return ruleError(rule, scope, error);
      }
      if (answer instanceof Promise) {
        return answer.then(
          (matched) => (matched ? rule : match(list, scope, index + 1)),
          (error: unknown) => ruleError(rule, scope, error),
        );
      }
      if (answer) return rule;
    }
    return undefined;
  };

  for (let attempt = 1; ; attempt++) {
    if (signal?.aborted) throw AbortedError.fromSignal(signal);

    const preMatch = preCheck.length === 0 ? undefined : match(preCheck, baseScope(attempt, 'pre-check'));
    const preRule = preMatch instanceof Promise ? await preMatch : preMatch;
    if (preRule?.then === 'fail-fast') {
      failFast({ kind: preRule.kind, label: preRule.label, phase: 'pre-check', attempt, errorKind: lastKind });
    }

    const context: Mutable<GateAttemptContext> = { attempt, providerIndex };
    if (feedback) context.feedback = feedback;
    if (signal) context.signal = signal;
    const started = performance.now();
    let response: TResponse | undefined;
    let thrown: unknown;
    let verdict: GateVerdict<TValue> | undefined;
    let retryAfterMs: number | undefined;
    let validatorError: unknown;
    let kind: ErrorKind;
    try {
      response = await options.call(context);
    } catch (error) {
      thrown = error;
    }
    const latencyMs = performance.now() - started;
    let attemptUsage = ZERO_USAGE;
    if (thrown === undefined) {
      const answered = response as TResponse;
      attemptUsage = options.usageOf?.(answered, context) ?? ZERO_USAGE;
      try {
        const judged = options.validate ? options.validate(answered, context) : { status: 'accept' as const, value: answered as unknown as TValue };
        verdict = judged instanceof Promise ? await judged : judged;
        kind = verdict.status === 'accept' ? 'ok' : verdict.status === 'invalid' ? (verdict.failure.stage === 'json-parse' ? 'parse-fail' : 'schema-fail') : verdict.errorKind;
      } catch (error) {
        // A validator that crashes is a bug, not a model failure: counted, reported, never retried.
        validatorError = error;
        kind = 'unknown';
      }
    } else {
      const classified = classify(thrown);
      kind = signal?.aborted ? 'aborted' : classified.kind;
      retryAfterMs = classified.retryAfterMs;
    }
    usage = addUsage(usage, attemptUsage);

    const failure = verdict?.status === 'invalid' ? verdict.failure : undefined;
    const issues: readonly ValidationIssue[] = failure?.issues ?? [];
    const rawOutput = failure?.rawOutput ?? (verdict && verdict.status !== 'invalid' ? verdict.rawOutput : undefined);
    const record: Mutable<AttemptRecord> = {
      step: options.step ?? 0,
      attempt,
      purpose: options.purpose ?? 'step',
      providerIndex,
      status: kind === 'ok' ? 'ok' : failure ? 'invalid' : 'error',
      errorType: kind,
      issues,
      elapsedMs: latencyMs,
      usage: attemptUsage,
      feedbackSent: feedback !== undefined,
    };
    if (rawOutput !== undefined) record.rawOutput = rawOutput;
    attempts.push(record);
    try {
      options.onAttempt?.(record);
    } catch {
      // An observer, like onEvent: it never changes the run.
    }
    history.push({ attempt, providerIndex, errorKind: kind, issueCount: issues.length });
    lastKind = kind;

    if (kind === 'aborted') throw signal?.aborted ? AbortedError.fromSignal(signal) : new AbortedError({ cause: thrown });
    if (validatorError !== undefined) {
      failFast({ kind: 'validator-error', label: 'the validator threw', phase: 'post-decide', attempt, errorKind: kind, cause: validatorError });
    }

    if (failure) {
      validationFailures++;
      validationErrorHistory.push(issueSignature(failure.issues));
      emit({
        type: 'validation.failed',
        message: failure.message,
        stage: failure.stage,
        ...(failure.path === undefined ? {} : { path: failure.path }),
        rawOutput: failure.rawOutput,
        attempt,
        cumulativeRetries: validationFailures,
        issueCount: failure.issues.length,
      });
    }

    const scope = baseScope(attempt, 'post-decide');
    scope.errorKind = kind;
    scope.latencyMs = latencyMs;
    if (response !== undefined) scope.response = response;
    if (thrown !== undefined) scope.error = thrown;
    if (retryAfterMs !== undefined) scope.retryAfterMs = retryAfterMs;
    if (failure) {
      scope.validationError = {
        message: failure.message,
        stage: failure.stage,
        ...(failure.path === undefined ? {} : { path: failure.path }),
        rawOutput: failure.rawOutput,
        issues: failure.issues,
      };
    }

    const accept = (value: TValue, via: 'model' | 'fallback'): GateResult<TResponse, TValue> => {
      const priorFailures = attempt - 1 - okBeforeLast(attempts);
      if (priorFailures > 0 || via === 'fallback') {
        emit({ type: 'reliability.recovered', attempt, priorFailures, via: via === 'fallback' ? 'fallback' : lastRecovery });
      }
      const result: Mutable<GateResult<TResponse, TValue>> = { value, via, attempts, usage };
      if (response !== undefined && via !== 'fallback') result.response = response;
      if (kind !== 'ok') result.acceptedIssues = issues;
      return result;
    };

    /** What made this attempt fail, for a fail-fast error's cause. */
    const cause = thrown ?? failure ?? (verdict?.status === 'error' ? new Error(verdict.message) : undefined);
    const matching = match(rules, scope);
    const rule = matching instanceof Promise ? await matching : matching;
    const decision = rule?.then ?? (kind === 'ok' ? 'ok' : 'fail-fast');
    switch (decision) {
      case 'ok':
      case 'continue':
        if (verdict?.status === 'accept') return accept(verdict.value, 'model');
        if (verdict?.status === 'invalid') return accept(verdict.partialValue as TValue, 'model');
        // A rule accepted a failed call or a truncated/refused answer: there is no value to give.
        if (decision === 'ok') return accept(undefined as TValue, 'model');
        failFast({ kind: rule?.kind ?? 'unhandled-failure', label: rule?.label, phase: 'post-decide', attempt, errorKind: kind, cause });
        break;
      case 'fail-fast':
        failFast({ kind: rule?.kind ?? 'unhandled-failure', label: rule?.label, phase: 'post-decide', attempt, errorKind: kind, cause });
        break;
      case 'fallback': {
        if (!options.fallback) {
          failFast({ kind: rule?.kind ?? 'fallback', label: 'a rule chose fallback but none is configured', phase: 'post-decide', attempt, errorKind: kind, cause });
        }
        let value: TValue;
        try {
          value = await (options.fallback as NonNullable<typeof options.fallback>)(scope);
        } catch (error) {
          return failFast({ kind: 'fallback-failed', label: rule?.kind, phase: 'post-decide', attempt, errorKind: kind, cause: error });
        }
        return accept(value, 'fallback');
      }
      case 'retry-other':
      case 'retry': {
        const activeRule = rule as ReliabilityRule<TResponse>;
        // The cap is checked before any wait: a retry that cannot happen is not waited for.
        if (attempt >= maxAttempts) {
          failFast({ kind: 'loop-cap', label: `more than ${maxAttempts} attempts`, phase: 'loop-cap', attempt, errorKind: kind, cause });
        }
        if (decision === 'retry-other') {
          if (providerIndex + 1 >= providerCount) {
            failFast({ kind: activeRule.kind, label: 'no other provider is configured', phase: 'post-decide', attempt, errorKind: kind, cause });
          }
          providerIndex++;
        }
        if (failure) {
          feedback = options.feedback === false ? undefined : await buildFeedback({ failure, rule: activeRule, scope, options, emit });
          lastRecovery = feedback ? 'feedback' : 'retry';
        }
        if (decision === 'retry-other') lastRecovery = 'retry-other';
        else if (!failure) lastRecovery = 'retry';
        let delayMs = 0;
        if (decision === 'retry') {
          if (retryAfterMs !== undefined) delayMs = Math.min(retryAfterMs, maxRetryAfterMs);
          else {
            try {
              delayMs = Math.max(0, (await resolveValue(activeRule.backoff, scope)) ?? 0);
            } catch (error) {
              emit({ type: 'reliability.rule_error', phase: 'post-decide', ruleKind: activeRule.kind, part: 'backoff', message: reduceError(error).message });
              failFast({ kind: 'rule-error', label: activeRule.kind, phase: 'rule-error', attempt, errorKind: kind, cause: error });
            }
          }
        }
        emit({
          type: 'reliability.retry',
          attempt,
          kind: activeRule.kind,
          errorKind: kind,
          delayMs,
          decision,
          ...(failure && feedback ? { feedback: feedback.text } : {}),
        });
        if (delayMs > 0 || signal?.aborted) await sleep(delayMs, signal);
        break;
      }
    }
  }
}
