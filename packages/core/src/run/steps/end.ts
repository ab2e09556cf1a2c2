import { formatPath, raceSignal, reduceError } from '@keel/reliability/internal';
import type { CompleteRunResult, RunRecord, RunResult, SuspendedRunResult } from '../../contracts/run-result';
import type { BuiltPayload } from '../../events/agent-events';
import { deliverRecord } from '../deliver-record';
import type { RecordedRun } from '../../contracts/recorded-run';
import type { AssistantMessage, FinishReason } from '@keel/provider';
import type { RunContext } from '../state/run-context';
import type { RunStateSnapshot } from '../../contracts/run-state-snapshot';
import type { Answer, RunState, StepOutcome } from '../../contracts/run-state';
import { storeFailure } from './load-memory';
import { persistedMessages } from '../../context/compaction';

const NO_PENDING: readonly [] = Object.freeze([]) as readonly [];

/**
 * The result of a run that has its final answer: its record and the answer. One literal, not the
 * record spread and extended: V8 adds each property after a spread in about a microsecond. The run
 * that ends and a journal folded to its `end` (`journal-result.ts`) make it the same way.
 */
export function completeResult(record: RunRecord, answer: Answer): CompleteRunResult<unknown> {
  return {
    runId: record.runId,
    text: record.text,
    messages: record.messages,
    steps: record.steps,
    toolCalls: record.toolCalls,
    attempts: record.attempts,
    usage: record.usage,
    finishReason: record.finishReason,
    startedAt: record.startedAt,
    durationMs: record.durationMs,
    status: 'complete',
    value: answer.value,
    provenance: answer.provenance,
    repairs: answer.repairs,
    coercions: answer.coercions,
    issues: answer.issues,
    pendingApprovals: NO_PENDING,
    unknownOutcomes: NO_PENDING,
  };
}

/** The result of a run that waits (approvals, unknown outcomes): its record, its sealed state and the calls that wait, no value. */
export function suspendedResult(record: RunRecord, suspended: RunStateSnapshot): SuspendedRunResult {
  const waiting = { status: 'suspended', pendingApprovals: suspended.pending, unknownOutcomes: suspended.unknown ?? NO_PENDING, state: suspended } as const;
  return Object.assign(record, waiting);
}

/** What every result holds, however the run ended (a run stopped at `maxSteps` has only this). */
export function runRecordOf(context: RunContext, state: RunState, text: string, finishReason: FinishReason): RunRecord {
  return {
    runId: state.runId,
    text,
    messages: state.messages,
    steps: state.steps,
    toolCalls: state.toolCalls,
    attempts: context.ledger.attempts,
    usage: context.ledger.snapshot(),
    finishReason,
    startedAt: state.startedAt,
    durationMs: state.elapsedMs + performance.now() - context.started,
  };
}

/** The result of a run that has its final answer. */
export function resultOf(context: RunContext, state: RunState, text: string, answer: Answer, finishReason: FinishReason): CompleteRunResult<unknown> {
  return completeResult(runRecordOf(context, state, text, finishReason), answer);
}

/**
 * The result of a run that waits (approvals, unknown outcomes): its sealed state and the calls that
 * wait, no value. Its duration is the one sealed in the state (and journaled with the suspension),
 * so a run recovered from its journal gives back the very same result.
 */
export function suspendedResultOf(context: RunContext, state: RunState, finishReason: FinishReason, suspended: RunStateSnapshot): SuspendedRunResult {
  return suspendedResult({ ...runRecordOf(context, state, '', finishReason), durationMs: suspended.elapsedMs }, suspended);
}

/** Hands the run's record to the agent's record listeners (`builder.onRecord()`). */
function recorded(context: RunContext, state: RunState, status: RecordedRun['status'], record: RunRecord | undefined, reduced: { name: string; message: string } | undefined): void {
  const { config, parentRunId, parentToolCallId, nestedAttempts: nested } = context;
  const kept = record ?? runRecordOf(context, state, '', 'error');
  const run: { -readonly [K in keyof RecordedRun]: RecordedRun[K] } = {
    runId: context.runId,
    status,
    record: kept,
    ownAttempts: nested.size === 0 ? kept.attempts : kept.attempts.filter((attempt) => !nested.has(attempt)),
    targets: config.recordedTargets,
    loopsDetected: state.loops,
  };
  if (parentRunId !== undefined) run.parentRunId = parentRunId;
  if (parentToolCallId !== undefined) run.parentToolCallId = parentToolCallId;
  if (reduced) {
    run.errorName = reduced.name;
    run.errorMessage = reduced.message;
  }
  deliverRecord(context.bus, config.recorders, run, context.step);
}

/**
 * Reports the run's end: `run.end`, with how the run ended, its usage and the error it ended
 * with, and its record to the record listeners (`record`: the result, when the run has one).
 */
export function runEnded(context: RunContext, state: RunState, status: RecordedRun['status'], record: RunRecord | undefined, error?: unknown): void {
  const reduced = error === undefined ? undefined : reduceError(error);
  if (context.config.recorders.length > 0) recorded(context, state, status, record, reduced);
  if (!context.listens('run.end')) return;
  const usage = context.ledger.snapshot();
  const payload: BuiltPayload<'run.end'> = {
    runId: context.runId,
    step: context.step,
    timestamp: Date.now(),
    status,
    durationMs: state.elapsedMs + performance.now() - context.started,
    steps: state.steps.length,
    modelCalls: usage.modelCalls,
    inputTokens: usage.inputTokens,
    outputTokens: usage.outputTokens,
    cacheReadTokens: usage.cacheReadTokens,
    cacheWriteTokens: usage.cacheWriteTokens,
  };
  if (usage.costUsd !== undefined) payload.costUsd = usage.costUsd;
  if (state.loops > 0) payload.loopsDetected = state.loops;
  if (reduced) {
    payload.errorName = reduced.name;
    payload.errorMessage = reduced.message;
  }
  context.emitBuilt('run.end', payload);
}

/**
 * The step `end`: the final answer is kept, memory receives the accepted exchange (never
 * ephemeral messages), and the run's result is made.
 */
export async function end(context: RunContext, state: RunState): Promise<StepOutcome<RunResult<unknown>>> {
  const next = state.next;
  if (next.type !== 'end') throw new TypeError(`the end step cannot take a ${next.type} step`);
  const { config, sink } = context;
  const { text, finishReason, answer } = next;
  const step = state.step;
  const began = state.stepBegan ?? { at: context.started, calls: context.callsAtStart };
  const modelCalls = context.ledger.attempts.length - began.calls;
  if (sink && config.output && sink.mode === 'buffer' && text.length > 0) sink.push({ type: 'text-delta', step, attempt: modelCalls, text });
  const final: AssistantMessage = { role: 'assistant', content: text.length > 0 ? [{ type: 'text', text }] : [] };
  const ended: RunState = {
    ...state,
    messages: [...state.messages, final],
    steps: [...state.steps, { step, finishReason, text, toolCalls: 0, modelCalls, durationMs: performance.now() - began.at }],
    stepBegan: undefined,
  };
  if (context.listens('step.end')) context.emitBuilt('step.end', { runId: context.runId, step: context.step, timestamp: Date.now(), finishReason, toolCalls: 0, final: true });
  sink?.push({ type: 'step-end', step, finishReason });
  const memory = config.memory;
  const conversationId = context.conversationId;
  if (memory && conversationId !== undefined) {
    const run = context.signal ? { runId: state.runId, signal: context.signal } : { runId: state.runId };
    // With `persist`, memory keeps the compacted history (what was last sent), not every message.
    const compaction = config.context?.persist ? ended.compaction : undefined;
    const stored = compaction ? persistedMessages(ended.messages, state.history?.length ?? 0, compaction) : ended.messages;
    await raceSignal(Promise.resolve().then(() => memory.append(conversationId, stored, run)), context.signal).catch(storeFailure('append'));
  }
  if ((answer.repairs.length > 0 || answer.coercions.length > 0) && context.listens('output.repaired')) {
    context.emit('output.repaired', {
      repairs: answer.repairs.join(', '),
      coercions: answer.coercions.length,
      coercedPaths: answer.coercions.map((coercion) => formatPath(coercion.path)).join(', '),
    });
  }
  const result = resultOf(context, ended, text, answer, finishReason);
  runEnded(context, ended, 'complete', result);
  return { type: 'done', result, state: ended };
}
