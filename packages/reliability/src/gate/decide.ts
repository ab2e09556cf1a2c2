import { reduceError } from '../errors/keel-error';
import { isPromiseLike, raceSignal, rethrowIfAborted } from '../race-signal';
import { sleep } from '../sleep';
import { emitGateEvent, failFast, type GateRun, scopeOf } from './gate-run';
import type { AttemptOutcome } from './make-attempt';
import type { ReliabilityRule, RuleDecision } from './rule';
import type { ReliabilityScope } from './scope';
import { resolveValue } from './scope-value';

/** What PostDecide decided for an attempt, and the rule that decided it (none: the gate's own default). */
export interface Decision<TResponse> {
  readonly decision: RuleDecision;
  readonly rule: ReliabilityRule<TResponse> | undefined;
}

/** A rule's `when` threw: reported, then the run fails fast with kind `rule-error`. */
function ruleError<TResponse, TValue>(run: GateRun<TResponse, TValue>, rule: ReliabilityRule<TResponse>, scope: ReliabilityScope<TResponse>, error: unknown): never {
  emitGateEvent(run, { type: 'reliability.rule-error', phase: scope.phase, ruleKind: rule.kind, part: 'when', message: reduceError(error).message });
  return failFast(run, { kind: 'rule-error', label: rule.kind, phase: 'rule-error', attempt: scope.attempt, errorKind: scope.errorKind, cause: error });
}

/** The first rule whose `when` matches; synchronous unless a `when` returns a promise. */
function match<TResponse, TValue>(
  run: GateRun<TResponse, TValue>,
  list: readonly ReliabilityRule<TResponse>[],
  scope: ReliabilityScope<TResponse>,
  from = 0,
): ReliabilityRule<TResponse> | undefined | Promise<ReliabilityRule<TResponse> | undefined> {
  for (let index = from; index < list.length; index++) {
    const rule = list[index] as ReliabilityRule<TResponse>;
    let answer: boolean | Promise<boolean>;
    let pending: boolean;
    try {
      answer = rule.when(scope);
      // Inside the try: an answer whose `then` getter throws (a hostile Proxy) is the rule's error.
      pending = isPromiseLike<boolean>(answer);
    } catch (error) {
      return ruleError(run, rule, scope, error);
    }
    if (pending) {
      // A `when` that never settles cannot hold the run: it is raced against the signal.
      return raceSignal(answer as Promise<boolean>, run.signal).then(
        (matched) => (matched ? rule : match(run, list, scope, index + 1)),
        (error: unknown) => {
          rethrowIfAborted(run.signal, error);
          return ruleError(run, rule, scope, error);
        },
      );
    }
    if (answer) return rule;
  }
  return undefined;
}

/**
 * Runs the PreCheck rules before attempt `attempt`.
 * @throws {ReliabilityFailFastError} when one decides `fail-fast` (or throws).
 */
export async function preCheck<TResponse, TValue>(run: GateRun<TResponse, TValue>, attempt: number): Promise<void> {
  if (run.preCheck.length === 0) return;
  const list: readonly ReliabilityRule<TResponse>[] = run.preCheck;
  const scope = scopeOf(run, attempt, 'pre-check');
  const matching = match(run, list, scope);
  let rule = matching instanceof Promise ? await matching : matching;
  // A `continue` rule with a backoff is a wait before the attempt; the rules after it still run.
  while (rule?.then === 'continue' && rule.backoff !== undefined) {
    await waitBefore(run, rule, scope);
    rule = await match(run, list, scope, list.indexOf(rule) + 1);
  }
  if (rule?.then === 'fail-fast') failFast(run, { kind: rule.kind, label: rule.label, phase: 'pre-check', attempt, errorKind: run.lastKind });
}

/** Waits as a PreCheck rule's backoff says (capped like a Retry-After), reported as `reliability.wait`. */
async function waitBefore<TResponse, TValue>(run: GateRun<TResponse, TValue>, rule: ReliabilityRule<TResponse>, scope: ReliabilityScope<TResponse>): Promise<void> {
  let delayMs = 0;
  try {
    const backoff = await raceSignal(resolveValue(rule.backoff, scope), run.signal);
    // A backoff that is not a finite number waits nothing rather than forever.
    delayMs = typeof backoff === 'number' && Number.isFinite(backoff) ? Math.min(Math.max(0, backoff), run.maxRetryAfterMs) : 0;
  } catch (error) {
    rethrowIfAborted(run.signal, error);
    emitGateEvent(run, { type: 'reliability.rule-error', phase: 'pre-check', ruleKind: rule.kind, part: 'backoff', message: reduceError(error).message });
    failFast(run, { kind: 'rule-error', label: rule.kind, phase: 'rule-error', attempt: scope.attempt, errorKind: scope.errorKind, cause: error });
  }
  if (!(delayMs > 0)) return;
  emitGateEvent(run, { type: 'reliability.wait', attempt: scope.attempt, kind: rule.kind, delayMs });
  await sleep(delayMs, run.signal);
}

/**
 * Runs the PostDecide rules on an attempt; with no match, a success is `ok` and a failure
 * `fail-fast`. A plain value unless a rule's `when` returns a promise.
 * @throws {ReliabilityFailFastError} when a rule's `when` throws.
 */
export function decide<TResponse, TValue>(run: GateRun<TResponse, TValue>, outcome: AttemptOutcome<TResponse, TValue>): Decision<TResponse> | Promise<Decision<TResponse>> {
  const matching = match(run, run.rules, outcome.scope);
  return matching instanceof Promise ? matching.then((rule) => decisionOf(outcome, rule)) : decisionOf(outcome, matching);
}

function decisionOf<TResponse, TValue>(outcome: AttemptOutcome<TResponse, TValue>, rule: ReliabilityRule<TResponse> | undefined): Decision<TResponse> {
  return { decision: rule?.then ?? (outcome.kind === 'ok' ? 'ok' : 'fail-fast'), rule };
}
