import { classifyError, type ErrorClassification } from '../classify-error';
import type { ErrorKind } from '../error-kind';
import { type FailFastPhase, ReliabilityFailFastError } from '../errors/reliability-fail-fast-error';
import type { ValidationFailure } from '../errors/validation-failure';
import { addUsage, type UsageTotals, ZERO_USAGE } from '../usage';
import type { AttemptRecord } from './attempt-record';
import { defaultRules } from './default-rules';
import type { GateEvent, RecoveredEvent } from './gate-event';
import type { GateFeedback, GateOptions } from './gate-options';
import type { PreCheckRule, ReliabilityRule, RuleDecision } from './rule';
import type { AttemptSummary, ReliabilityScope } from './scope';

/** The default rules are stateless, so one set serves every gate run. */
const SHARED_DEFAULT_RULES: readonly ReliabilityRule<unknown>[] = Object.freeze(defaultRules());

export type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/**
 * One gate run: its settings, resolved once, and what it has learned so far. Created by
 * `runGate`, read and updated by the attempt, decide and apply steps; never shared between runs.
 */
export interface GateRun<TResponse, TValue> {
  readonly options: GateOptions<TResponse, TValue>;
  readonly preCheck: readonly PreCheckRule<TResponse>[];
  readonly rules: readonly ReliabilityRule<TResponse>[];
  readonly maxAttempts: number;
  readonly maxRetryAfterMs: number;
  readonly providerCount: number;
  readonly classify: (error: unknown) => ErrorClassification;
  readonly signal: AbortSignal | undefined;
  readonly attempts: AttemptRecord[];
  readonly history: AttemptSummary[];
  /** Issue-set signatures of every validation failure so far. */
  readonly validationErrorHistory: string[];
  usage: UsageTotals;
  providerIndex: number;
  /** Feedback the next attempt carries. */
  feedback: GateFeedback | undefined;
  /** The kind of the latest attempt (what PreCheck rules see). */
  lastKind: ErrorKind;
  /** How the latest retry tried to overcome its failure, for `reliability.recovered`. */
  lastRecovery: RecoveredEvent['via'];
  /** The latest validation failure, for fallbacks and fail-fast errors. */
  lastFailure: ValidationFailure | undefined;
}

const DECISIONS: ReadonlySet<unknown> = new Set<RuleDecision>(['continue', 'ok', 'retry', 'retry-other', 'fallback', 'fail-fast']);

/**
 * Why `rule` cannot run, or `undefined`: it must be an object with a `when` function and a known
 * decision (`continue` or `fail-fast` only, for a PreCheck rule). A rule deciding something else
 * would leave the gate without a next step.
 */
export function ruleProblem(rule: unknown, phase: 'pre-check' | 'post-decide'): string | undefined {
  if (typeof rule !== 'object' || rule === null) return `a rule is ${rule === null ? 'null' : typeof rule}, not a rule`;
  const { when, then, kind } = rule as { when?: unknown; then?: unknown; kind?: unknown };
  const name = typeof kind === 'string' ? `rule "${kind}"` : 'a rule';
  if (typeof when !== 'function') return `${name} has no when function`;
  if (!DECISIONS.has(then)) return `${name} decides ${typeof then === 'string' ? `"${then}"` : typeof then}, which is not a decision`;
  if (phase === 'pre-check' && then !== 'continue' && then !== 'fail-fast') return `PreCheck ${name} decides "${String(then)}"; PreCheck rules may only continue or fail-fast`;
  return undefined;
}

/**
 * Resolves the options of a gate run.
 * @throws {TypeError} for a rule that is not one: no `when` function, an unknown decision, or a
 * PreCheck rule that decides anything but continue or fail-fast.
 */
export function startGateRun<TResponse, TValue>(options: GateOptions<TResponse, TValue>): GateRun<TResponse, TValue> {
  const preCheck = options.preCheck ?? [];
  const rules = options.postDecide ?? [];
  for (const [list, phase] of [[preCheck, 'pre-check'], [rules, 'post-decide']] as const) {
    for (const rule of list) {
      const problem = ruleProblem(rule, phase);
      if (problem) throw new TypeError(problem);
    }
  }
  return {
    options,
    preCheck,
    rules: options.defaults === false ? rules : rules.concat(SHARED_DEFAULT_RULES as ReliabilityRule<TResponse>[]),
    maxAttempts: options.maxAttempts ?? 10,
    maxRetryAfterMs: options.maxRetryAfterMs ?? 30_000,
    providerCount: options.providerCount ?? 1,
    classify: options.classify ?? classifyError,
    signal: options.signal,
    attempts: [],
    history: [],
    validationErrorHistory: [],
    usage: ZERO_USAGE,
    providerIndex: 0,
    feedback: undefined,
    lastKind: 'ok',
    lastRecovery: 'retry',
    lastFailure: undefined,
  };
}

/** Reports a gate event; observers never change the run, so their throws are swallowed. */
export function emitGateEvent<TResponse, TValue>(run: GateRun<TResponse, TValue>, event: GateEvent): void {
  try {
    run.options.onEvent?.(event);
  } catch {
    // Observers never change the run.
  }
}

/** What a fail-fast stop reports. */
export interface FailFastFields {
  readonly kind: string;
  readonly label?: string | undefined;
  readonly phase: FailFastPhase;
  readonly attempt: number;
  readonly errorKind: ErrorKind;
  readonly cause?: unknown;
}

/** Stops the gate run: `reliability.fail-fast`, then a {@link ReliabilityFailFastError} with every attempt. */
export function failFast<TResponse, TValue>(run: GateRun<TResponse, TValue>, { label, ...fields }: FailFastFields): never {
  const labelled = label === undefined ? {} : { label };
  emitGateEvent(run, { type: 'reliability.fail-fast', kind: fields.kind, ...labelled, attempt: fields.attempt, errorKind: fields.errorKind, phase: fields.phase });
  throw new ReliabilityFailFastError({
    ...fields,
    ...labelled,
    // The run's own list (not a copy): concurrent gate runs still settling add theirs before the caller sees the error.
    attempts: run.options.runAttempts ? run.options.runAttempts() : [...(run.options.priorAttempts ?? []), ...run.attempts],
    ...(run.lastFailure === undefined ? {} : { lastValidationFailure: run.lastFailure }),
  });
}

/** The run's usage: the live total when the caller gives one, else the snapshot plus this gate run's. */
function runUsageOf<TResponse, TValue>(run: GateRun<TResponse, TValue>): UsageTotals {
  const runUsage = run.options.runUsage;
  if (typeof runUsage === 'function') return runUsage();
  return runUsage ? addUsage(runUsage, run.usage) : run.usage;
}

/** The scope rules see for `attempt`: the facts of the run so far, with live (read-only) history views. */
export function scopeOf<TResponse, TValue>(run: GateRun<TResponse, TValue>, attempt: number, phase: ReliabilityScope['phase']): Mutable<ReliabilityScope<TResponse>> {
  const scope: Mutable<ReliabilityScope<TResponse>> = {
    phase,
    attempt,
    providerIndex: run.providerIndex,
    providerCount: run.providerCount,
    errorKind: phase === 'pre-check' ? run.lastKind : 'ok',
    latencyMs: 0,
    // Live views, read-only by type: a scope is valid during the rule call that receives it.
    validationErrorHistory: run.validationErrorHistory,
    history: run.history,
    usage: { step: run.usage, run: runUsageOf(run) },
    retries: attempt - 1,
  };
  if (run.signal) scope.signal = run.signal;
  return scope;
}
