import type { RunResult } from '@keel/core';
import { type AttemptRecord, isTransientErrorKind, readField, type RunRecord, type TokenUsage } from '@keel/core/internal';
import type { ItemReliability, TokenCounts } from './eval-report';

/** Fail-fast kinds that mean the run was stopped as a loop. */
const LOOP_KINDS = /stuck|no-progress|loop/;

/** A run's usage as its `run.end` event reports it: the fallback for a failed run without attempts. */
export interface EndedRun extends TokenUsage {
  readonly modelCalls: number;
}

/** A run's cost figures: calls, tokens, dollars. */
export interface RunCost {
  readonly calls: number;
  readonly tokens: TokenCounts;
  readonly costUsd: number | null;
}

const tokens = (input: number, output: number, cacheRead: number, cacheWrite: number): TokenCounts => ({ input, output, cacheRead, cacheWrite, total: input + output + cacheRead + cacheWrite });

/** The ledger's totals: of a completed run, its `usage`. */
export function costOfResult(result: RunRecord): RunCost {
  const { usage } = result;
  return { calls: usage.modelCalls, tokens: tokens(usage.inputTokens, usage.outputTokens, usage.cacheReadTokens, usage.cacheWriteTokens), costUsd: usage.costUsd ?? null };
}

/** Of a failed run: its attempt records summed (they are its ledger), else what `run.end` said. */
export function costOfFailure(attempts: readonly AttemptRecord[] | undefined, ended: EndedRun | undefined): RunCost {
  if (attempts !== undefined && attempts.length > 0) {
    let cost: number | null = null;
    const sum = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };
    for (const { usage } of attempts) {
      sum.input += usage.inputTokens;
      sum.output += usage.outputTokens;
      sum.cacheRead += usage.cacheReadTokens;
      sum.cacheWrite += usage.cacheWriteTokens;
      if (usage.costUsd !== undefined) cost = (cost ?? 0) + usage.costUsd;
    }
    return { calls: attempts.length, tokens: tokens(sum.input, sum.output, sum.cacheRead, sum.cacheWrite), costUsd: cost };
  }
  if (ended === undefined) return { calls: 0, tokens: tokens(0, 0, 0, 0), costUsd: null };
  return { calls: ended.modelCalls, tokens: tokens(ended.inputTokens, ended.outputTokens, ended.cacheReadTokens, ended.cacheWriteTokens), costUsd: ended.costUsd ?? null };
}

/** The attempts of a failed run: the fail-fast error's, or the partial result's of a run out of steps. */
export function attemptsOfError(error: unknown): readonly AttemptRecord[] | undefined {
  const attempts = readField(error, 'attempts') ?? readField(readField(error, 'partial'), 'attempts');
  return Array.isArray(attempts) ? (attempts as AttemptRecord[]) : undefined;
}

/** The kind a failed run is filed under: the fail-fast rule's kind, `max-steps`, the error kind, or the error's name. */
export function failureKindOf(error: unknown): string {
  const kind = readField(error, 'kind');
  if (typeof kind === 'string' && kind !== '') return kind;
  if (readField(error, 'name') === 'MaxStepsExceededError') return 'max-steps';
  const errorKind = readField(error, 'errorKind');
  if (typeof errorKind === 'string' && errorKind !== '') return errorKind;
  const name = readField(error, 'name');
  return typeof name === 'string' && name !== '' ? name : 'unknown';
}

/** How a run got to its answer (or failed), from its attempt records, its result and its error. */
export function reliabilityOf(attempts: readonly AttemptRecord[], result: RunResult<unknown> | undefined, failureKind: string | undefined): ItemReliability {
  const attemptFailures: Record<string, number> = {};
  let reAsks = 0;
  let toolReAsks = 0;
  let transientFailures = 0;
  let patches = 0;
  let continuations = 0;
  let invalid = false;
  for (const attempt of attempts) {
    if (attempt.feedbackSent) {
      reAsks++;
      if (attempt.purpose === 'tool-re-ask') toolReAsks++;
    }
    if (attempt.status !== 'valid') attemptFailures[attempt.errorKind] = (attemptFailures[attempt.errorKind] ?? 0) + 1;
    if (attempt.status === 'invalid') invalid = true;
    if (attempt.status === 'error' && isTransientErrorKind(attempt.errorKind)) transientFailures++;
    if (attempt.via === 'patch') patches++;
    if (attempt.via === 'continuation') continuations++;
  }
  return {
    firstPassValid: result !== undefined && reAsks === 0 && !invalid,
    reAsks,
    toolReAsks,
    transientFailures,
    repairs: result?.status === 'complete' ? [...result.repairs] : [],
    coercions: result?.status === 'complete' ? result.coercions.map((coercion) => coercion.kind) : [],
    patches,
    continuations,
    loop: failureKind !== undefined && LOOP_KINDS.test(failureKind),
    attemptFailures,
  };
}
