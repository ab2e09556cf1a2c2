import type { ErrorKind } from '../error-kind';
import { reduceError } from '../errors/keel-error';
import { type FailFastPhase, ReliabilityFailFastError } from '../errors/reliability-fail-fast-error';
import { isPromiseLike, raceSignal, rethrowIfAborted } from '../race-signal';
import type { AttemptRecord } from './attempt-record';
import type { FailFastDecision } from './decision';
import type { GateEvent } from './gate-event';
import type { GateMemory } from './gate-memory';
import type { ReliabilityRule } from './rule';
import type { ReliabilityScope } from './scope';

type Rule<TResponse> = ReliabilityRule<TResponse>;

/** A stop, with its `reliability.fail-fast` event last. */
export function stop(attempt: number, errorKind: ErrorKind, fields: { kind: string; label?: string | undefined; phase: FailFastPhase; cause?: unknown; errorKind?: ErrorKind }, events: GateEvent[] = []): FailFastDecision {
  const labelled = fields.label === undefined ? {} : { label: fields.label };
  events.push({ type: 'reliability.fail-fast', rule: fields.kind, ...labelled, attempt, errorKind, phase: fields.phase });
  return { type: 'fail-fast', rule: fields.kind, ...labelled, phase: fields.phase, ...(fields.cause === undefined ? {} : { cause: fields.cause }), ...(fields.errorKind === undefined ? {} : { errorKind: fields.errorKind }), events };
}

/** The error a fail-fast decision ends with; `attempts` is every attempt of the enclosing run (the gate's own when alone). */
export function failFastError<TResponse>(memory: GateMemory<TResponse>, attempt: number, decision: FailFastDecision, attempts: readonly AttemptRecord[]): ReliabilityFailFastError {
  return new ReliabilityFailFastError({
    kind: decision.rule,
    ...(decision.label === undefined ? {} : { label: decision.label }),
    phase: decision.phase,
    attempt,
    errorKind: decision.errorKind ?? memory.lastKind,
    attempts,
    ...(decision.cause === undefined ? {} : { cause: decision.cause }),
    ...(memory.lastFailure === undefined ? {} : { lastValidationFailure: memory.lastFailure }),
  });
}

/** The first matching rule from `from`, or the error of a rule whose `when` threw. */
export type Match<TResponse> = { readonly rule: Rule<TResponse>; readonly index: number } | { readonly thrown: unknown; readonly rule: Rule<TResponse> } | undefined;

/** The first rule of `list` from index `from` whose `when` matches `scope`; asynchronous only when a `when` is. */
export function match<TResponse>(list: readonly Rule<TResponse>[], scope: ReliabilityScope<TResponse>, from: number, signal: AbortSignal | undefined): Match<TResponse> | Promise<Match<TResponse>> {
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

/** `next(value)`, after `value` settles when it is a promise: synchronous for a plain value. */
export const andThen = <T, R>(value: T | Promise<T>, next: (value: T) => R | Promise<R>): R | Promise<R> => (value instanceof Promise ? value.then(next) : next(value));

/** The stop of a rule whose `when` or `backoff` threw: kind `rule-error`, reported as `reliability.rule-error`. */
export function ruleError<TResponse>(attempt: number, scope: ReliabilityScope<TResponse>, rule: Rule<TResponse>, part: 'when' | 'backoff', thrown: unknown): FailFastDecision {
  const events: GateEvent[] = [{ type: 'reliability.rule-error', phase: scope.phase, rule: rule.kind, part, message: reduceError(thrown).message }];
  return stop(attempt, scope.errorKind, { kind: 'rule-error', label: rule.kind, phase: 'rule-error', cause: thrown }, events);
}
