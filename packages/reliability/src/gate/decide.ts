import { type ErrorKind, isValidationErrorKind } from '../error-kind';
import { reduceError } from '../errors/keel-error';
import { type FailFastPhase, ReliabilityFailFastError } from '../errors/reliability-fail-fast-error';
import { ValidationFailure } from '../errors/validation-failure';
import { feedbackInput } from '../feedback/format-feedback';
import { truncateEcho } from '../feedback/truncate-echo';
import { patchRequestOf } from '../patch/patch-request';
import { isPromiseLike, raceSignal, rethrowIfAborted } from '../race-signal';
import { sleep } from '../sleep';
import type { UsageTotals } from '../usage';
import type { AttemptRecord } from './attempt-record';
import { buildFeedback } from './build-feedback';
import type { Judged } from './call-and-judge';
import type { Decision, FailFastDecision } from './decision';
import { failureSignature } from './failure-signature';
import { acceptsOkWithoutRules } from './failure-only';
import type { GateEvent } from './gate-event';
import type { GateFeedback } from './gate-options';
import { type GateState, scopeOf, validationFailedEvent } from './gate-state';
import type { ReliabilityRule } from './rule';
import type { AttemptSummary, ReliabilityScope } from './scope';
import { resolveValue } from './scope-value';

type Rule<TResponse> = ReliabilityRule<TResponse>;

/** A stop, with its `reliability.fail-fast` event last. */
export function stop(attempt: number, errorKind: ErrorKind, fields: { kind: string; label?: string | undefined; phase: FailFastPhase; cause?: unknown }, events: GateEvent[] = []): FailFastDecision {
  const labelled = fields.label === undefined ? {} : { label: fields.label };
  events.push({ type: 'reliability.fail-fast', kind: fields.kind, ...labelled, attempt, errorKind, phase: fields.phase });
  return { type: 'fail-fast', kind: fields.kind, ...labelled, phase: fields.phase, ...(fields.cause === undefined ? {} : { cause: fields.cause }), events };
}

/** The error a fail-fast decision ends with; `attempts` is every attempt of the enclosing run (the gate's own when alone). */
export function failFastError<TResponse>(state: GateState<TResponse>, attempt: number, decision: FailFastDecision, attempts: readonly AttemptRecord[]): ReliabilityFailFastError {
  return new ReliabilityFailFastError({
    kind: decision.kind,
    ...(decision.label === undefined ? {} : { label: decision.label }),
    phase: decision.phase,
    attempt,
    errorKind: state.lastKind,
    attempts,
    ...(decision.cause === undefined ? {} : { cause: decision.cause }),
    ...(state.lastFailure === undefined ? {} : { lastValidationFailure: state.lastFailure }),
  });
}

/** The first matching rule from `from`, or the error of a rule whose `when` threw. */
type Match<TResponse> = { readonly rule: Rule<TResponse>; readonly index: number } | { readonly thrown: unknown; readonly rule: Rule<TResponse> } | undefined;

function match<TResponse>(list: readonly Rule<TResponse>[], scope: ReliabilityScope<TResponse>, from: number, signal: AbortSignal | undefined): Match<TResponse> | Promise<Match<TResponse>> {
  for (let index = from; index < list.length; index++) {
    const rule = list[index] as Rule<TResponse>;
    let answer: boolean | Promise<boolean>;
    let pending: boolean;
    try {
      answer = rule.when(scope);
      // Inside the try: an answer whose `then` getter throws (a hostile Proxy) is the rule's error.
      pending = isPromiseLike<boolean>(answer);
    } catch (thrown) {
      return { thrown, rule };
    }
    if (pending) {
      // A `when` that never settles cannot hold the run: it is raced against the signal.
      return raceSignal(answer as Promise<boolean>, signal).then(
        (matched) => (matched ? { rule, index } : match(list, scope, index + 1, signal)),
        (thrown: unknown) => {
          rethrowIfAborted(signal, thrown);
          return { thrown, rule };
        },
      );
    }
    if (answer) return { rule, index };
  }
  return undefined;
}

const then = <T, R>(value: T | Promise<T>, next: (value: T) => R | Promise<R>): R | Promise<R> => (value instanceof Promise ? value.then(next) : next(value));

function ruleError<TResponse>(state: GateState<TResponse>, attempt: number, scope: ReliabilityScope<TResponse>, rule: Rule<TResponse>, part: 'when' | 'backoff', thrown: unknown): FailFastDecision {
  const events: GateEvent[] = [{ type: 'reliability.rule-error', phase: scope.phase, ruleKind: rule.kind, part, message: reduceError(thrown).message }];
  return stop(attempt, scope.errorKind, { kind: 'rule-error', label: rule.kind, phase: 'rule-error', cause: thrown }, events);
}

/**
 * Runs the PreCheck rules before attempt `attempt`: a `continue` rule with a backoff is a wait
 * (reported through `report` as `reliability.wait`, capped like a Retry-After), after which the
 * rules after it still run. Returns the stop when one decides `fail-fast` (or throws).
 */
export async function preCheck<TResponse>(state: GateState<TResponse>, attempt: number, runUsage: UsageTotals, signal: AbortSignal | undefined, report: (event: GateEvent) => void): Promise<FailFastDecision | undefined> {
  const list = state.settings.preCheck;
  if (list.length === 0) return undefined;
  const scope = scopeOf(state, attempt, runUsage, signal);
  for (let from = 0; ; ) {
    const found = await match(list, scope, from, signal);
    if (!found) return undefined;
    if ('thrown' in found) return ruleError(state, attempt, scope, found.rule, 'when', found.thrown);
    const { rule, index } = found;
    if (rule.then === 'fail-fast') return stop(attempt, state.lastKind, { kind: rule.kind, label: rule.label, phase: 'pre-check' });
    if (rule.backoff === undefined) return undefined;
    let delayMs = 0;
    try {
      const backoff = await raceSignal(resolveValue(rule.backoff, scope), signal);
      delayMs = typeof backoff === 'number' && Number.isFinite(backoff) ? Math.min(Math.max(0, backoff), state.settings.maxRetryAfterMs) : 0;
    } catch (thrown) {
      rethrowIfAborted(signal, thrown);
      return ruleError(state, attempt, scope, rule, 'backoff', thrown);
    }
    if (delayMs > 0) {
      report({ type: 'reliability.wait', attempt, kind: rule.kind, delayMs });
      await sleep(delayMs, signal);
    }
    from = index + 1;
  }
}

/**
 * The policy: what follows attempt `attempt`, from the gate's memory and the PostDecide rules
 * (first match wins; with no match, a success is accepted and a failure stops). A plain value
 * unless a rule, backoff or feedback hook is asynchronous. Never throws for a rule's fault: a
 * throwing rule is a `fail-fast` decision of kind `rule-error`.
 */
export function decide<TResponse, TValue>(state: GateState<TResponse>, attempt: number, judged: Judged<TResponse, TValue>, runUsage: UsageTotals, signal: AbortSignal | undefined): Decision | Promise<Decision> {
  if (judged.validatorError !== undefined) {
    // A validator that crashes is a bug, not a model failure: counted, reported, never retried.
    return stop(attempt, judged.kind, { kind: 'validator-error', label: 'the validator threw', phase: 'post-decide', cause: judged.validatorError });
  }
  const continued = continueOutput(state, attempt, judged);
  if (continued) return continued;
  // The usual success: no rule can act on it, so it is accepted without building a scope.
  if (judged.kind === 'ok' && judged.verdict?.status === 'accept' && acceptsOkWithoutRules(state.settings.rules)) return { type: 'accept', events: recovered(state, attempt) };
  const scope = scopeOf(state, attempt, runUsage, signal, judged) as ReliabilityScope<TResponse>;
  const decided = then(match(state.settings.rules, scope, 0, signal), (found) => fromRule(state, attempt, judged, scope, found, runUsage, signal));
  return state.settings.fallbackOn ? then(decided, (decision) => orFallback(state, decision)) : decided;
}

/**
 * An output cut at the token limit, with continuation on: continue it (before any rule: a cut
 * output is not a mistake to feed back). Within `maxContinuations` in a row and `maxAttempts`;
 * past them the rules decide on the `truncated` failure as before.
 */
function continueOutput<TResponse, TValue>(state: GateState<TResponse>, attempt: number, judged: Judged<TResponse, TValue>): Decision | undefined {
  const { settings } = state;
  if (judged.kind !== 'truncated' || !settings.continuation || state.continuations >= settings.continuation.maxContinuations) return undefined;
  const partial = judged.verdict?.status === 'error' ? judged.verdict.rawOutput?.trimEnd() : undefined;
  if (!partial) return undefined;
  if (attempt >= settings.maxAttempts) return stop(attempt, judged.kind, { kind: 'loop-cap', label: `more than ${settings.maxAttempts} attempts`, phase: 'loop-cap' });
  return { type: 'continue-output', partial, events: [] };
}

/** Readies the gate for the attempt a `continue-output` decided. */
export function applyContinue<TResponse>(state: GateState<TResponse>, decision: Extract<Decision, { type: 'continue-output' }>): void {
  state.continuation = decision.partial;
  state.continuations++;
  state.recovery = 'continuation';
}

/** A stop on a failure of the answer, when a fallback may stand in: `fallback`, carrying the stop. */
function orFallback<TResponse>(state: GateState<TResponse>, decision: Decision): Decision {
  if (decision.type !== 'fail-fast' || decision.phase === 'rule-error' || decision.phase === 'pre-check' || !state.settings.fallbackOn?.includes(state.lastKind)) return decision;
  // The stop is not reported: the fallback replaces it (or the caller reports it when none applies).
  return { type: 'fallback', kind: decision.kind, instead: decision, events: decision.events.filter((event) => event.type !== 'reliability.fail-fast') };
}

function fromRule<TResponse, TValue>(
  state: GateState<TResponse>,
  attempt: number,
  judged: Judged<TResponse, TValue>,
  scope: ReliabilityScope<TResponse>,
  found: Match<TResponse>,
  runUsage: UsageTotals,
  signal: AbortSignal | undefined,
): Decision | Promise<Decision> {
  if (found && 'thrown' in found) return ruleError(state, attempt, scope, found.rule, 'when', found.thrown);
  const rule = found?.rule;
  const verdict = judged.verdict;
  const cause = judged.thrown ?? (verdict?.status === 'invalid' ? verdict.failure : verdict?.status === 'error' ? new Error(verdict.message) : undefined);
  switch (rule?.then ?? (judged.kind === 'ok' ? 'ok' : 'fail-fast')) {
    case 'ok':
    case 'continue':
      if (verdict?.status === 'accept' || verdict?.status === 'invalid' || rule?.then === 'ok') return { type: 'accept', events: recovered(state, attempt) };
      // A `continue` rule on a failed call or a truncated answer: there is no value to give.
      return stop(attempt, judged.kind, { kind: rule?.kind ?? 'unhandled-failure', label: rule?.label, phase: 'post-decide', cause });
    case 'fail-fast':
      if (judged.kind === 'ok' && rule) return stop(attempt, 'ok', { kind: rule.kind, label: `stopped a valid answer${rule.label ? `: ${rule.label}` : ''}`, phase: 'post-decide' });
      return stop(attempt, judged.kind, { kind: rule?.kind ?? 'unhandled-failure', label: rule?.label, phase: 'post-decide', cause });
    case 'fallback':
      return { type: 'fallback', kind: (rule as Rule<TResponse>).kind, events: [] };
    case 'retry':
    case 'retry-other':
      if (verdict?.status === 'accept' && found) return reject(state, attempt, judged, found, runUsage, signal);
      return retry(state, attempt, judged, scope, rule as Rule<TResponse>, rule?.then === 'retry-other', undefined, []);
    default:
      // Rules are checked when the gate starts; a decision that changed since is a stop, never a loop.
      return stop(attempt, judged.kind, { kind: 'rule-error', label: rule?.kind, phase: 'rule-error', cause });
  }
}

/** Attempts of this gate before `attempt` that failed. */
function priorFailures<TResponse>(state: GateState<TResponse>, attempt: number): number {
  let okBefore = 0;
  for (let index = 0; index < state.history.length - 1; index++) if ((state.history[index] as AttemptSummary).errorKind === 'ok') okBefore++;
  return attempt - 1 - okBefore;
}

/** `reliability.recovered` when earlier attempts of this gate failed. */
function recovered<TResponse>(state: GateState<TResponse>, attempt: number): GateEvent[] {
  const failures = priorFailures(state, attempt);
  return failures > 0 ? [{ type: 'reliability.recovered', attempt, priorFailures: failures, via: state.recovery }] : [];
}

/** The `reliability.recovered` event of a value a fallback produced. */
export function fallbackRecovered<TResponse>(state: GateState<TResponse>, attempt: number): GateEvent {
  return { type: 'reliability.recovered', attempt, priorFailures: priorFailures(state, attempt), via: 'fallback' };
}

/**
 * A rule decided `retry` on a valid value: it rejects it. The attempt becomes a `rule-rejected`
 * failure (its signature names the rule and its masked feedback), reported like any validation
 * failure; the rules after the rejecting one then decide, so budgets and stuck detection apply.
 * When none of them retries or stops (only the catch-all `unhandled-failure` matches), the
 * rejecting rule's retry stands, bounded by `maxAttempts`.
 */
async function reject<TResponse, TValue>(
  state: GateState<TResponse>,
  attempt: number,
  judged: Judged<TResponse, TValue>,
  found: { readonly rule: Rule<TResponse>; readonly index: number },
  runUsage: UsageTotals,
  signal: AbortSignal | undefined,
): Promise<Decision> {
  const { rule } = found;
  const accepted = judged.verdict as Extract<typeof judged.verdict, { status: 'accept' }>;
  const rawOutput = accepted.rawOutput ?? '';
  const label = rule.label ?? `rejected by rule "${rule.kind}"`;
  const placeholder = new ValidationFailure({ stage: 'rule-check', message: label, rawOutput, issues: [{ path: [], pathText: '(root)', kind: 'other', message: label, expected: rule.kind }] });
  const feedbackSettings = state.settings.feedback;
  const previousOutput = truncateEcho(rawOutput, feedbackSettings === false ? 4000 : feedbackSettings.maxTokens);
  let message = label;
  const events: GateEvent[] = [];
  if (rule.feedbackForLLM !== undefined) {
    try {
      const hook = rule.feedbackForLLM;
      const scope = scopeOf(state, attempt, runUsage, signal, judged) as ReliabilityScope<TResponse>;
      const text: unknown = typeof hook === 'string' ? hook : await raceSignal(Promise.resolve(hook(feedbackInput(placeholder, { attempt, previousOutput, scope }))), signal);
      if (typeof text === 'string' && text.length > 0) message = text;
      else if (typeof text !== 'string') events.push({ type: 'reliability.feedback-error', source: 'rule', message: `the feedback hook returned ${text === null ? 'null' : typeof text}, not a string` });
    } catch (thrown) {
      rethrowIfAborted(signal, thrown);
      events.push({ type: 'reliability.feedback-error', source: 'rule', message: reduceError(thrown).message });
    }
  }
  const rejection = new ValidationFailure({ stage: 'rule-check', message, rawOutput, issues: [{ path: [], pathText: '(root)', kind: 'other', message, expected: rule.kind }] });
  // The attempt's own record says what happened to it: rejected, not accepted.
  const record = state.lastRecord as { -readonly [K in keyof AttemptRecord]: AttemptRecord[K] } | undefined;
  if (record) Object.assign(record, { status: 'invalid', errorKind: 'rule-rejected', issues: rejection.issues });
  const summary = state.history[state.history.length - 1];
  if (summary) state.history[state.history.length - 1] = { ...summary, errorKind: 'rule-rejected', issueCount: 1 };
  state.lastKind = 'rule-rejected';
  state.lastFailure = rejection;
  state.signatures.push(failureSignature(rejection));
  events.push(validationFailedEvent(state, rejection, attempt));
  const rejected: Judged<TResponse, TValue> = { ...judged, kind: 'rule-rejected', verdict: { status: 'invalid', failure: rejection, partialValue: accepted.value } };
  const scope = scopeOf(state, attempt, runUsage, signal, rejected) as ReliabilityScope<TResponse>;
  const feedback: GateFeedback | undefined = feedbackSettings === false ? undefined : { previousOutput, text: message };
  const next = await match(state.settings.rules, scope, found.index + 1, signal);
  if (next && 'thrown' in next) return ruleError(state, attempt, scope, next.rule, 'when', next.thrown);
  const after = next?.rule;
  if (after && (after.then === 'retry' || after.then === 'retry-other')) return retry(state, attempt, rejected, scope, after, after.then === 'retry-other', feedback, events);
  if (after && after.kind !== 'unhandled-failure') {
    const decided = await fromRule(state, attempt, rejected, scope, next, runUsage, signal);
    return { ...decided, events: [...events, ...decided.events] } as Decision;
  }
  return retry(state, attempt, rejected, scope, rule, rule.then === 'retry-other', feedback, events);
}

/** A retry: the caps checked first (no wait for a retry that cannot happen), then feedback and the delay. */
async function retry<TResponse, TValue>(
  state: GateState<TResponse>,
  attempt: number,
  judged: Judged<TResponse, TValue>,
  scope: ReliabilityScope<TResponse>,
  rule: Rule<TResponse>,
  other: boolean,
  given: GateFeedback | undefined,
  events: GateEvent[],
): Promise<Decision> {
  const { settings } = state;
  const kind = judged.kind;
  const cause = judged.thrown ?? (judged.verdict?.status === 'invalid' ? judged.verdict.failure : undefined);
  if (attempt >= settings.maxAttempts) return stop(attempt, kind, { kind: 'loop-cap', label: `more than ${settings.maxAttempts} attempts`, phase: 'loop-cap', cause }, events);
  const provider = other ? state.providerIndex + 1 : state.providerIndex;
  if (provider >= settings.providerCount) return stop(attempt, kind, { kind: rule.kind, label: 'no other provider is configured', phase: 'post-decide', cause }, events);
  const failure = judged.verdict?.status === 'invalid' ? judged.verdict.failure : undefined;
  let feedback = given;
  if (!feedback && failure && settings.feedback !== false) {
    const verdict = judged.verdict as Extract<typeof judged.verdict, { status: 'invalid' }>;
    const patch = settings.patch && verdict.rejectedValue !== undefined ? patchRequestOf(failure, verdict.rejectedValue, settings.patch) : undefined;
    feedback = await buildFeedback({ failure, rule, scope, options: { ...settings.feedback, signal: scope.signal }, emit: (event) => events.push(event), patch });
  }
  let delayMs = 0;
  if (!other) {
    if (judged.retryAfterMs !== undefined) delayMs = Math.min(judged.retryAfterMs, settings.maxRetryAfterMs);
    else {
      try {
        const backoff = await raceSignal(resolveValue(rule.backoff, scope), scope.signal);
        // A backoff that is not a finite number waits nothing rather than forever.
        delayMs = typeof backoff === 'number' && Number.isFinite(backoff) ? Math.max(0, backoff) : 0;
      } catch (thrown) {
        rethrowIfAborted(scope.signal, thrown);
        const failed = ruleError(state, attempt, scope, rule, 'backoff', thrown);
        return { ...failed, events: [...events, ...failed.events] };
      }
    }
  }
  const decision = other ? 'retry-other' : 'retry';
  events.push({ type: 'reliability.retry', attempt, kind: rule.kind, errorKind: kind, delayMs, decision, ...(failure && feedback ? { feedback: feedback.text } : {}) });
  const withFeedback = failure && feedback ? { feedback } : {};
  return other
    ? { type: 'retry-other', kind: rule.kind, provider, delayMs, ...withFeedback, events }
    : { type: 'retry', kind: rule.kind, delayMs, ...withFeedback, ...(failure && feedback?.patch ? { patch: feedback.patch } : {}), events };
}

/**
 * Readies the gate for the attempt a retry decided: the provider to use and the feedback to carry
 * (a failure without feedback, feedback off, sends none; a provider error keeps the pending one).
 */
export function applyRetry<TResponse>(state: GateState<TResponse>, decision: Extract<Decision, { type: 'retry' | 'retry-other' }>): void {
  const failed = isValidationErrorKind(state.lastKind);
  if (decision.type === 'retry-other') state.providerIndex = decision.provider;
  if (decision.feedback) state.feedback = decision.feedback;
  else if (failed) state.feedback = undefined;
  // A new output is asked for (a transient failure of a continuation retries the continuation).
  if (failed || decision.feedback) {
    state.continuation = undefined;
    state.continuations = 0;
  }
  state.recovery = decision.type === 'retry-other' ? 'retry-other' : decision.feedback ? 'feedback' : 'retry';
}

/**
 * Carries out a retry: readies the gate ({@link applyRetry}), then waits the decided delay
 * (abortable; an already-aborted signal rejects at once). Every loop over the policy retries this way.
 */
export function retryAfter<TResponse>(state: GateState<TResponse>, decision: Extract<Decision, { type: 'retry' | 'retry-other' }>, signal: AbortSignal | undefined): Promise<void> | undefined {
  applyRetry(state, decision);
  return decision.delayMs > 0 || signal?.aborted ? sleep(decision.delayMs, signal) : undefined;
}
