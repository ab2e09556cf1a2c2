import type { TokenUsage } from '../usage';
import type { Judged } from './judged';
import { frozenCopy } from './frozen-copy';
import type { GateMemory } from './gate-memory';
import type { RuleRunView } from '../loops/run-view';
import type { AttemptPurpose, ReliabilityScope } from './scope';

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/**
 * The scope rules see: the facts of the gate so far, with live (read-only) history views. For
 * PostDecide, `judged` is the attempt just made; `runUsage` is the whole run's usage, this
 * attempt included (the gate's own when it runs alone).
 */
export function scopeOf<TResponse, TValue>(
  memory: GateMemory<TResponse>,
  attempt: number,
  runUsage: TokenUsage,
  signal: AbortSignal | undefined,
  judged?: Judged<TResponse, TValue>,
): ReliabilityScope<TResponse, TValue> {
  const { settings } = memory;
  const purpose: AttemptPurpose = settings.toolCall ? 'tool-re-ask' : judged?.verdict?.status === 'valid' ? (judged.verdict.purpose ?? 'final-answer') : 'final-answer';
  const scope: Mutable<ReliabilityScope<TResponse, TValue>> = {
    phase: judged ? 'post-decide' : 'pre-check',
    attempt,
    purpose,
    providerIndex: memory.providerIndex,
    providerCount: settings.providerCount,
    errorKind: judged ? judged.errorKind : memory.lastKind,
    latencyMs: judged?.latencyMs ?? 0,
    validationErrorHistory: memory.signatures,
    history: memory.history,
    usage: { step: memory.usage, run: runUsage },
    retries: attempt - 1,
  };
  if (settings.toolCall) scope.toolCall = settings.toolCall;
  if (signal) scope.signal = signal;
  const run = settings.run;
  if (run) {
    // Made when a rule first reads it, then the same value for every rule of this attempt.
    let view: RuleRunView | undefined;
    Object.defineProperty(scope, 'run', { enumerable: true, get: () => (view ??= Object.freeze(run.view(judged?.response))) });
  }
  if (!judged) return scope;
  // Rules read the response and the value, never change them: deep-frozen copies, made only
  // when a rule reads them, so a write throws (a `rule-error`) instead of changing what runs.
  if (judged.response !== undefined) frozenView(scope, 'response', judged.response);
  if (judged.thrown !== undefined) scope.error = judged.thrown;
  if (judged.retryAfterMs !== undefined) scope.retryAfterMs = judged.retryAfterMs;
  const verdict = judged.verdict;
  if (verdict?.status === 'valid') frozenView(scope, 'value', verdict.value);
  if (verdict?.status === 'invalid') {
    const failure = verdict.failure;
    scope.validationError = {
      message: failure.message,
      stage: failure.stage,
      ...(failure.pathText === undefined ? {} : { pathText: failure.pathText }),
      rawOutput: failure.rawOutput,
      issues: failure.issues,
    };
  }
  return scope;
}

/** Defines `scope[key]` as a deep-frozen copy of `value`, made on first read. */
function frozenView(scope: object, key: 'response' | 'value', value: unknown): void {
  let copy: { readonly value: unknown } | undefined;
  Object.defineProperty(scope, key, { enumerable: true, get: () => (copy ??= { value: frozenCopy(value) }).value });
}
