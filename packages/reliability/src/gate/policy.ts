import { GATE_DEFAULTS } from '../defaults';
import type { ErrorKind } from '../error-kind';
import { reduceError } from '../errors/keel-error';
import { ValidationFailure } from '../errors/validation-failure';
import { feedbackInput } from '../feedback/format-feedback';
import { CHARS_PER_TOKEN, truncateEcho } from '../feedback/truncate-echo';
import { patchRequestOf } from '../patch/patch-request';
import { raceSignal, rethrowIfAborted } from '../race-signal';
import type { TokenUsage } from '../usage';
import { buildFeedback } from './build-feedback';
import type { Decision } from './decision';
import { failureSignature } from './failure-signature';
import { markedRules } from './failure-only';
import type { GateEvent, ValidationFailedEvent } from './gate-event';
import type { GateMemory } from './gate-memory';
import type { GateFeedback } from './gate-options';
import { andThen, type Match, match, ruleError, stop } from './rule-match';
import { ACTION_LOOP_KIND, describeActionLoop, loopOfRule } from '../rules/action-loop-rules';
import type { ReliabilityRule } from './rule';
import type { Judged } from './judged';
import type { AttemptSummary, ReliabilityScope } from './scope';
import { scopeOf } from './scope-of';
import { resolveValue } from './scope-value';

type Rule<TResponse> = ReliabilityRule<TResponse>;

/** Per rule list: the fewest finished steps at which a rule may match a successful attempt (0: at once, Infinity: never). */
const okWithoutRules = new WeakMap<readonly object[], number>();

/**
 * True when no rule of `rules` can match this successful attempt: every one is a library rule that
 * matches failures only, or one that matches loops only while the run has fewer finished steps
 * than such a loop needs.
 */
function acceptsOkWithoutRules(rules: readonly object[], finishedSteps: number): boolean {
  let needed = okWithoutRules.get(rules);
  if (needed === undefined) {
    const { failureOnly, loopsOnly } = markedRules;
    needed = Number.POSITIVE_INFINITY;
    for (const rule of rules) if (!failureOnly.has(rule)) needed = Math.min(needed, loopsOnly.get(rule) ?? 0);
    okWithoutRules.set(rules, needed);
  }
  return finishedSteps < needed;
}

/**
 * The policy: what follows attempt `attempt`, from the gate's memory and the PostDecide rules
 * (first match wins; with no match, a success is accepted and a failure stops). Pure: it reads
 * the memory and returns a {@link Decision} with the changes it implies (`rejection`), which
 * `applyDecision` applies. A plain value unless a rule, backoff or feedback hook is asynchronous.
 * Never throws for a rule's fault: a throwing rule is a `fail-fast` decision of kind `rule-error`.
 * `usageOfRun` gives the whole run's usage, this attempt included; it is asked for only when a
 * rule may read it.
 */
export function decide<TResponse, TValue>(memory: GateMemory<TResponse>, attempt: number, judged: Judged<TResponse, TValue>, usageOfRun: () => TokenUsage, signal: AbortSignal | undefined): Decision | Promise<Decision> {
  if (judged.validatorError !== undefined) {
    // A validator that crashes is a bug, not a model failure: counted, reported, never retried.
    return stop(attempt, judged.errorKind, { kind: 'validator-error', label: 'the validator threw', phase: 'post-decide', cause: judged.validatorError });
  }
  const continued = continueOutput(memory, attempt, judged);
  if (continued) return continued;
  // The usual success: no rule can act on it, so it is accepted without building a scope.
  if (judged.errorKind === 'ok' && judged.verdict?.status === 'valid' && acceptsOkWithoutRules(memory.settings.rules, memory.settings.run?.steps ?? 0)) return { type: 'accept', events: recovered(memory, attempt) };
  const runUsage = usageOfRun();
  const scope = scopeOf(memory, attempt, runUsage, signal, judged) as ReliabilityScope<TResponse>;
  const decided = andThen(match(memory.settings.rules, scope, 0, signal), (found) => andThen(fromRule(memory, attempt, judged, scope, found, runUsage, signal), (decision) => withLoopReport(decision, found, scope, attempt)));
  return memory.settings.fallbackOn ? andThen(decided, (decision) => orFallback(memory, decision)) : decided;
}

/** A decision an action-loop rule made, with its `reliability.loop-detected` event first: the loop, its calls, nudge or stop. */
function withLoopReport<TResponse>(decision: Decision, found: Match<TResponse>, scope: ReliabilityScope<TResponse>, attempt: number): Decision {
  const rule = found?.rule;
  if (!rule || (found && 'thrown' in found)) return decision;
  const loop = loopOfRule(rule, scope as ReliabilityScope<unknown>);
  if (!loop) return decision;
  const event: GateEvent = { type: 'reliability.loop-detected', attempt, rule: rule.kind, loop: loop.type, tools: [...new Set(loop.calls.map((call) => call.name))].join(', '), rounds: loop.rounds, action: rule.then === 'fail-fast' ? 'stop' : 'nudge' };
  return { ...decision, events: [event, ...decision.events] } as Decision;
}

/**
 * An output cut at the token limit, with continuation on: continue it (before any rule: a cut
 * output is not a mistake to feed back). Within `maxContinuations` in a row and `maxAttempts`;
 * past them the rules decide on the `truncated` failure as before.
 */
function continueOutput<TResponse, TValue>(memory: GateMemory<TResponse>, attempt: number, judged: Judged<TResponse, TValue>): Decision | undefined {
  const { settings } = memory;
  if (judged.errorKind !== 'truncated' || !settings.continuation || memory.continuations >= settings.continuation.maxContinuations) return undefined;
  const partial = judged.verdict?.status === 'error' ? judged.verdict.rawOutput?.trimEnd() : undefined;
  if (!partial) return undefined;
  if (attempt >= settings.maxAttempts) return stop(attempt, judged.errorKind, { kind: 'loop-cap', label: `more than ${settings.maxAttempts} attempts`, phase: 'loop-cap' });
  return { type: 'continue-output', partial, events: [] };
}

/** A stop on a failure of the answer, when a fallback may stand in: `fallback`, carrying the stop. */
function orFallback<TResponse>(memory: GateMemory<TResponse>, decision: Decision): Decision {
  if (decision.type !== 'fail-fast' || decision.phase === 'rule-error' || decision.phase === 'pre-check') return decision;
  const kind: ErrorKind = decision.rejection ? 'rule-rejected' : memory.lastKind;
  if (!memory.settings.fallbackOn?.includes(kind)) return decision;
  // The stop is not reported: the fallback replaces it (or the loop reports it when none applies).
  const events = decision.events.filter((event) => event.type !== 'reliability.fail-fast');
  return { type: 'fallback', rule: decision.rule, instead: decision, events, ...(decision.rejection ? { rejection: decision.rejection } : {}) };
}

function fromRule<TResponse, TValue>(
  memory: GateMemory<TResponse>,
  attempt: number,
  judged: Judged<TResponse, TValue>,
  scope: ReliabilityScope<TResponse>,
  found: Match<TResponse>,
  runUsage: TokenUsage,
  signal: AbortSignal | undefined,
): Decision | Promise<Decision> {
  if (found && 'thrown' in found) return ruleError(attempt, scope, found.rule, 'when', found.thrown);
  const rule = found?.rule;
  const verdict = judged.verdict;
  const errorKind = judged.errorKind;
  const cause = judged.thrown ?? (verdict?.status === 'invalid' ? verdict.failure : verdict?.status === 'error' ? new Error(verdict.message) : undefined);
  switch (rule?.then ?? (errorKind === 'ok' ? 'accept' : 'fail-fast')) {
    case 'accept':
    case 'continue':
      if (verdict?.status === 'valid' || verdict?.status === 'invalid' || rule?.then === 'accept') return { type: 'accept', events: recovered(memory, attempt) };
      // A `continue` rule on a failed call or a truncated answer: there is no value to give.
      return stop(attempt, errorKind, { kind: rule?.kind ?? 'unhandled-failure', label: rule?.label, phase: 'post-decide', cause });
    case 'fail-fast': {
      // A loop of actions is its own failure, whatever the turn's own verdict: the error says what looped.
      const loop = rule ? loopOfRule(rule, scope as ReliabilityScope<unknown>) : undefined;
      if (loop && rule) return stop(attempt, 'action-loop', { kind: rule.kind, label: describeActionLoop(loop), phase: 'post-decide', errorKind: 'action-loop' });
      if (errorKind === 'ok' && rule) return stop(attempt, 'ok', { kind: rule.kind, label: `stopped a valid answer${rule.label ? `: ${rule.label}` : ''}`, phase: 'post-decide' });
      return stop(attempt, errorKind, { kind: rule?.kind ?? 'unhandled-failure', label: rule?.label, phase: 'post-decide', cause });
    }
    case 'fallback':
      return { type: 'fallback', rule: (rule as Rule<TResponse>).kind, events: [] };
    case 'retry':
    case 'retry-other':
      if (verdict?.status === 'valid' && found) return reject(memory, attempt, judged, found, runUsage, signal);
      return retry(memory, attempt, judged, scope, rule as Rule<TResponse>, rule?.then === 'retry-other', undefined, []);
    default:
      // Rules are checked when the gate starts; a decision that changed since is a stop, never a loop.
      return stop(attempt, errorKind, { kind: 'rule-error', label: rule?.kind, phase: 'rule-error', cause });
  }
}

/** Attempts of this gate before `attempt` that failed. */
function priorFailures<TResponse>(memory: GateMemory<TResponse>, attempt: number): number {
  let okBefore = 0;
  for (let index = 0; index < memory.history.length - 1; index++) if ((memory.history[index] as AttemptSummary).errorKind === 'ok') okBefore++;
  return attempt - 1 - okBefore;
}

/** `reliability.recovered` when earlier attempts of this gate failed. */
function recovered<TResponse>(memory: GateMemory<TResponse>, attempt: number): GateEvent[] {
  const failures = priorFailures(memory, attempt);
  return failures > 0 ? [{ type: 'reliability.recovered', attempt, priorFailures: failures, via: memory.recovery }] : [];
}

/** The `reliability.recovered` event of a value a fallback produced. */
export function fallbackRecovered<TResponse>(memory: GateMemory<TResponse>, attempt: number): GateEvent {
  return { type: 'reliability.recovered', attempt, priorFailures: priorFailures(memory, attempt), via: 'fallback' };
}

/**
 * The memory as it reads once attempt `attempt` is taken as `rejection` (a rule rejected its valid
 * value): a copy for the rules after the rejecting one; `applyDecision` makes the same change.
 */
export function withRejection<TResponse>(memory: GateMemory<TResponse>, rejection: ValidationFailure): GateMemory<TResponse> {
  const history = memory.history.slice();
  const summary = history[history.length - 1];
  if (summary) history[history.length - 1] = rejectedSummary(summary);
  return { ...memory, history, signatures: [...memory.signatures, failureSignature(rejection)], lastKind: 'rule-rejected', lastFailure: rejection };
}

/** A summary of an attempt whose value a rule rejected. */
export const rejectedSummary = (summary: AttemptSummary): AttemptSummary => ({ ...summary, errorKind: 'rule-rejected', issueCount: 1 });

/** The failure a rule's rejection of a valid value is: stage `rule-check`, one issue at the root. */
function rejectionOf(message: string, rawOutput: string, kind: string): ValidationFailure {
  return new ValidationFailure({ stage: 'rule-check', message, rawOutput, issues: [{ path: [], pathText: '(root)', kind: 'other', message, expected: kind }] });
}

/**
 * A rule decided `retry` on a valid value: it rejects it. The attempt becomes a `rule-rejected`
 * failure (its signature names the rule and its masked feedback), reported like any validation
 * failure; the rules after the rejecting one then decide, so budgets and stuck detection apply.
 * When none of them retries or stops (only the catch-all `unhandled-failure` matches), the
 * rejecting rule's retry stands, bounded by `maxAttempts`. The decision carries the rejection.
 */
async function reject<TResponse, TValue>(
  memory: GateMemory<TResponse>,
  attempt: number,
  judged: Judged<TResponse, TValue>,
  found: { readonly rule: Rule<TResponse>; readonly index: number },
  runUsage: TokenUsage,
  signal: AbortSignal | undefined,
): Promise<Decision> {
  const { rule } = found;
  const accepted = judged.verdict as Extract<typeof judged.verdict, { status: 'valid' }>;
  const rawOutput = accepted.rawOutput ?? '';
  const label = rule.label ?? `rejected by rule "${rule.kind}"`;
  const feedbackSettings = memory.settings.feedback;
  const previousOutput = truncateEcho(rawOutput, feedbackSettings === false ? GATE_DEFAULTS.maxFeedbackTokens : feedbackSettings.maxTokens);
  const events: GateEvent[] = [];
  const message = await rejectionMessage(memory, attempt, judged, rule, label, previousOutput, rejectionOf(label, rawOutput, rule.kind), runUsage, signal, events);
  const rejection = rejectionOf(message, rawOutput, rule.kind);
  const rejectedMemory = withRejection(memory, rejection);
  events.push(validationFailedEvent(rejectedMemory, rejection, attempt, rule.kind));
  const rejected: Judged<TResponse, TValue> = { ...judged, errorKind: 'rule-rejected', verdict: { status: 'invalid', failure: rejection, partialValue: accepted.value } };
  const scope = scopeOf(rejectedMemory, attempt, runUsage, signal, rejected) as ReliabilityScope<TResponse>;
  const feedback: GateFeedback | undefined = feedbackSettings === false ? undefined : { previousOutput, text: message };
  const decided = await afterRejection(rejectedMemory, attempt, rejected, scope, found, feedback, events, runUsage, signal);
  return { ...decided, rejection };
}

/**
 * The rules after the rejecting one decide; a retry of their own or the rejecting rule's stands
 * otherwise. An action-loop nudge stands as it is (its rules count and stop it).
 */
async function afterRejection<TResponse, TValue>(
  memory: GateMemory<TResponse>,
  attempt: number,
  rejected: Judged<TResponse, TValue>,
  scope: ReliabilityScope<TResponse>,
  found: { readonly rule: Rule<TResponse>; readonly index: number },
  feedback: GateFeedback | undefined,
  events: GateEvent[],
  runUsage: TokenUsage,
  signal: AbortSignal | undefined,
): Promise<Decision> {
  // A loop nudge is bounded by the loop rules themselves (`nudges`, then their stop), never taken for a stuck or failing output.
  if (found.rule.kind === ACTION_LOOP_KIND) return retry(memory, attempt, rejected, scope, found.rule, false, feedback, events);
  const next = await match(memory.settings.rules, scope, found.index + 1, signal);
  if (next && 'thrown' in next) return ruleError(attempt, scope, next.rule, 'when', next.thrown);
  const after = next?.rule;
  if (after && (after.then === 'retry' || after.then === 'retry-other')) return retry(memory, attempt, rejected, scope, after, after.then === 'retry-other', feedback, events);
  if (after && after.kind !== 'unhandled-failure') {
    const decided = await fromRule(memory, attempt, rejected, scope, next, runUsage, signal);
    return { ...decided, events: [...events, ...decided.events] } as Decision;
  }
  return retry(memory, attempt, rejected, scope, found.rule, found.rule.then === 'retry-other', feedback, events);
}

/** The rejecting rule's `feedbackForLLM`, else its label; a hook that fails is reported and the label stands. */
async function rejectionMessage<TResponse, TValue>(
  memory: GateMemory<TResponse>,
  attempt: number,
  judged: Judged<TResponse, TValue>,
  rule: Rule<TResponse>,
  label: string,
  previousOutput: string,
  placeholder: ValidationFailure,
  runUsage: TokenUsage,
  signal: AbortSignal | undefined,
  events: GateEvent[],
): Promise<string> {
  const hook = rule.feedbackForLLM;
  if (hook === undefined) return label;
  try {
    const scope = scopeOf(memory, attempt, runUsage, signal, judged) as ReliabilityScope<TResponse>;
    const text: unknown = typeof hook === 'string' ? hook : await raceSignal(Promise.resolve(hook(feedbackInput(placeholder, { attempt, previousOutput, scope }))), signal);
    if (typeof text === 'string' && text.length > 0) return text;
    if (typeof text !== 'string') events.push({ type: 'reliability.feedback-error', source: 'rule', message: `the feedback hook returned ${text === null ? 'null' : typeof text}, not a string` });
  } catch (thrown) {
    rethrowIfAborted(signal, thrown);
    events.push({ type: 'reliability.feedback-error', source: 'rule', message: reduceError(thrown).message });
  }
  return label;
}

/** A retry: the caps checked first (no wait for a retry that cannot happen), then feedback and the delay. */
async function retry<TResponse, TValue>(
  memory: GateMemory<TResponse>,
  attempt: number,
  judged: Judged<TResponse, TValue>,
  scope: ReliabilityScope<TResponse>,
  rule: Rule<TResponse>,
  other: boolean,
  given: GateFeedback | undefined,
  events: GateEvent[],
): Promise<Decision> {
  const { settings } = memory;
  const errorKind = judged.errorKind;
  const cause = judged.thrown ?? (judged.verdict?.status === 'invalid' ? judged.verdict.failure : undefined);
  if (attempt >= settings.maxAttempts) return stop(attempt, errorKind, { kind: 'loop-cap', label: `more than ${settings.maxAttempts} attempts`, phase: 'loop-cap', cause }, events);
  const provider = other ? memory.providerIndex + 1 : memory.providerIndex;
  if (provider >= settings.providerCount) return stop(attempt, errorKind, { kind: rule.kind, label: 'no other provider is configured', phase: 'post-decide', cause }, events);
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
        const failed = ruleError(attempt, scope, rule, 'backoff', thrown);
        return { ...failed, events: [...events, ...failed.events] };
      }
    }
  }
  const decision = other ? 'retry-other' : 'retry';
  // A rule's rejection of a valid answer is a `rule-check` failure whose issue names the rule.
  const rejectedBy = failure?.stage === 'rule-check' ? failure.issues[0]?.expected : undefined;
  events.push({ type: 'reliability.retry', attempt, rule: rule.kind, ...(rejectedBy === undefined ? {} : { rejectedBy }), errorKind, delayMs, decision, ...(failure && feedback ? { feedback: feedback.text } : {}) });
  const withFeedback = failure && feedback ? { feedback } : {};
  return other
    ? { type: 'retry-other', rule: rule.kind, provider, delayMs, ...withFeedback, events }
    : { type: 'retry', rule: rule.kind, delayMs, ...withFeedback, ...(failure && feedback?.patch ? { patch: feedback.patch } : {}), events };
}

/** Raw output as kept in records and events: at most `maxChars`, cut around the truncation marker. */
export function capRawOutput(text: string, maxChars: number): string {
  return text.length <= maxChars ? text : truncateEcho(text, maxChars / CHARS_PER_TOKEN);
}

/** The `validation.failed` event of a failure that was just noted. */
export function validationFailedEvent<TResponse>(memory: Pick<GateMemory<TResponse>, 'settings' | 'signatures'>, failure: ValidationFailure, attempt: number, rule?: string): ValidationFailedEvent {
  return {
    type: 'validation.failed',
    message: failure.message,
    stage: failure.stage,
    ...(rule === undefined ? {} : { rule }),
    ...(failure.pathText === undefined ? {} : { pathText: failure.pathText }),
    rawOutput: capRawOutput(failure.rawOutput, memory.settings.maxRawOutputChars),
    attempt,
    validationFailures: memory.signatures.length,
    issueCount: failure.issues.length,
  };
}
