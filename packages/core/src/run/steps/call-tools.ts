import { AbortedError } from '@keel/reliability';
import type { RunResult } from '../../agent/run-result';
import type { AssistantMessage, Message, ToolCallPart } from '../../model/message';
import { isPendingApproval, type PendingApproval } from '../../tools/pending-approval';
import { runToolCall, type ToolRunEnvironment } from '../../tools/run-tool-call';
import { toResultPart, type ToolCallRecord } from '../../tools/tool-result';
import { reAskArguments } from '../attempt/tool-re-ask';
import type { RunContext } from '../state/run-context';
import type { RunState, StepOutcome, ToolTurn } from '../state/run-state';
import { keptContext } from './ask-model';

/**
 * The step `call-tools`: a turn's tool calls run concurrently (each with its own argument
 * re-asks). When all finish, the turn and its results are kept and the run asks the model again;
 * when some wait for approval, the run goes on to `suspend`. A resumed turn runs its decided
 * calls (approved ones checked again and run, rejected ones refused) beside those that ran.
 */
export async function callTools(context: RunContext, state: RunState): Promise<StepOutcome<RunResult<unknown>>> {
  const next = state.next;
  if (next.type !== 'call-tools') throw new TypeError(`the call-tools step cannot take a ${next.type} step`);
  const { turn } = next;
  const calls = turn.content.filter((part): part is ToolCallPart => part.type === 'tool-call');
  const environment = toolEnvironment(context, keptContext(context, state));
  if (turn.resumed) return { type: 'next', state: keepToolTurn(context, state, turn, await resumedCalls(context, environment, turn, calls)) };
  const sink = context.sink;
  for (const call of calls) sink?.push({ type: 'tool-call', step: state.step, call });
  const outcomes = await settleAll(calls.map((call) => runToolCall(environment, call)));
  const pending = outcomes.filter((outcome): outcome is PendingApproval => isPendingApproval(outcome));
  if (pending.length === 0) return { type: 'next', state: keepToolTurn(context, state, turn, outcomes as ToolCallRecord[]) };
  const finished = outcomes.filter((outcome): outcome is ToolCallRecord => !isPendingApproval(outcome));
  const suspending = { turn, finished, pending, modelCalls: context.ledger.attempts.length - context.callsBefore, durationMs: performance.now() - context.stepStarted };
  return { type: 'next', state: { ...state, next: { type: 'suspend', suspending } } };
}

/** A resumed turn's calls: those that ran keep their records; each pending one runs as decided (never waiting again). */
async function resumedCalls(context: RunContext, environment: ToolRunEnvironment, turn: ToolTurn, calls: readonly ToolCallPart[]): Promise<ToolCallRecord[]> {
  const resumed = turn.resumed as NonNullable<ToolTurn['resumed']>;
  const decisions = Object.values(resumed.decisions);
  const approved = decisions.filter((decision) => decision.type === 'approved').length;
  if (context.listens('run.resumed')) context.emit('run.resumed', { suspensionId: resumed.suspensionId, approved, rejected: decisions.length - approved });
  context.stepStarted = performance.now();
  const finished = new Map(resumed.finished.map((record) => [record.id, record]));
  const decided: ToolRunEnvironment = { ...environment, reAsk: () => Promise.reject(new TypeError('an approved call is never re-asked')) };
  if (context.signal?.aborted) throw AbortedError.fromSignal(context.signal);
  context.resumeBegan?.();
  return settleAll(
    calls.map((part) => {
      const done = finished.get(part.id);
      if (done) return Promise.resolve(done);
      // Every pending call has a decision (checked before the run started), so none waits again.
      return runToolCall(decided, part, resumed.decisions[part.id] ?? { type: 'rejected', reason: undefined }).then(settledRecord);
    }),
  );
}

/** The state after a turn whose tool calls all finished: the turn (with the arguments that ran) and its results kept. */
function keepToolTurn(context: RunContext, state: RunState, turn: ToolTurn, records: readonly ToolCallRecord[]): RunState {
  const step = state.step;
  const { finishReason } = turn;
  const byId = new Map(records.map((record) => [record.id, record]));
  const assistant: AssistantMessage = {
    role: 'assistant',
    // The final arguments only: the raw text the model first wrote may be what was corrected.
    content: turn.content.map((part) => (part.type === 'tool-call' ? { type: 'tool-call', id: part.id, name: part.name, arguments: (byId.get(part.id) as ToolCallRecord).arguments } : part)),
  };
  const sink = context.sink;
  for (const record of records) sink?.push({ type: 'tool-result', step, record });
  const modelCalls = (turn.modelCalls ?? 0) + context.ledger.attempts.length - context.callsBefore;
  const durationMs = (turn.durationMs ?? 0) + performance.now() - context.stepStarted;
  if (context.listens('step.end')) context.emit('step.end', { finishReason, toolCalls: records.length, final: false });
  sink?.push({ type: 'step-end', step, finishReason });
  return {
    ...state,
    messages: [...state.messages, assistant, { role: 'tool', content: records.map(toResultPart) }],
    steps: [...state.steps, { step, finishReason, text: turn.text, toolCalls: records.length, modelCalls, durationMs }],
    toolCalls: [...state.toolCalls, ...records],
    next: { type: 'ask-model' },
  };
}

/**
 * Waits for every tool call of a turn to settle before going on, so no tool is still running (and
 * reporting events) after the run has ended; then rethrows the first failure (an abort, or a
 * re-ask whose model call failed for good).
 */
function settleAll<T>(pending: readonly Promise<T>[]): Promise<T[]> {
  if (pending.length === 1) return (pending[0] as Promise<T>).then(single);
  return Promise.allSettled(pending).then((settled) => {
    const failure = settled.find((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected');
    if (failure) throw failure.reason;
    return settled.map((outcome) => (outcome as PromiseFulfilledResult<T>).value);
  });
}

const single = <T>(value: T): T[] => [value];

/** A resumed call's record: with a decision, a call never comes back pending. */
function settledRecord(outcome: ToolCallRecord | PendingApproval): ToolCallRecord {
  if (isPendingApproval(outcome)) throw new TypeError('a decided call cannot wait for approval again');
  return outcome;
}

/** What a turn's tool calls run with: the run's tools, guards, limits, events, and its re-asks over `kept`. */
function toolEnvironment(context: RunContext, kept: readonly Message[]): ToolRunEnvironment {
  const { config } = context;
  return {
    // Agents called as tools tie their runs to this one: its id, and its ledger for their model calls.
    parent: { runId: context.runId, record: (attempt) => context.ledger.record(attempt), depth: context.depth, maxDepth: context.maxDepth, usage: context.budgetUsage, preCheck: context.preCheck },
    tools: config.tools,
    guards: config.guards,
    toolRetries: config.toolRetries,
    maxResultBytes: config.maxToolResultBytes,
    toolTimeoutMs: config.toolTimeoutMs,
    redact: config.redact,
    wrapCall: config.wrapCall,
    runId: context.runId,
    step: context.step,
    // A signal per run, made on first use: one shared by every run would collect their listeners.
    toolSignal: () => context.signal ?? (context.toolSignal ??= new AbortController().signal),
    abortSignal: context.signal,
    listens: (event) => context.listens(event),
    emit: (event, payload) => context.emit(event, payload),
    reAsk: (tool, guards, call, first) => reAskArguments(context, kept, tool, guards, call, first),
  };
}
