import { AbortedError, type AttemptRecord } from '@keel/reliability';
import type { RunResult } from '../../contracts/run-result';
import type { Message, ToolCallPart } from '@keel/provider';
import { isPendingApproval, type PendingApproval } from '../../tools/pending-approval';
import type { AgentEventName, BuiltPayload, EventPayload } from '../../events/agent-events';
import type { ArgumentsCheck } from '../../tools/check-arguments';
import type { ToolGuard } from '../../tools/guard';
import { type ReAskResult, runToolCall, type ToolRunEnvironment } from '../../tools/run-tool-call';
import type { AnyTool } from '../../tools/tool';
import type { ToolCallRecord } from '../../tools/tool-result';
import { hiddenTools, loadedAfter } from '../../tools/search/tool-search';
import { keptTurnMessages } from './kept-turn';
import { reAskArguments } from '../attempt/tool-re-ask';
import type { RunContext } from '../state/run-context';
import type { CallDecision, RunState, StepOutcome, ToolTurn } from '../../contracts/run-state';
import { keptContext } from './ask-model';
import { overflowOutcome } from './compact-context';
import { type CallOutcome, decidedEnvironment, isUnknownOutcome, journaled, type TurnJournal, turnJournal } from './tool-journal';

/**
 * The step `call-tools`: a turn's tool calls run concurrently (each with its own argument
 * re-asks). When all finish, the turn and its results are kept and the run asks the model again;
 * when some wait (for approval, or, in a recovered durable run, a `once` call whose outcome a
 * crash left unknown), the run goes on to `suspend`. A resumed turn runs its decided calls
 * beside those that ran. A durable run records each call's intent and outcome
 * (`tool-journal.ts`), and a recovered turn never runs a finished call again.
 */
export async function callTools(context: RunContext, state: RunState): Promise<StepOutcome<RunResult<unknown>>> {
  const next = state.next;
  if (next.type !== 'call-tools') throw new TypeError(`the call-tools step cannot take a ${next.type} step`);
  const { turn } = next;
  const calls = turn.content.filter((part): part is ToolCallPart => part.type === 'tool-call');
  const journal = turnJournal(context, state, turn);
  const hidden = context.config.toolSearch === undefined ? undefined : hiddenTools(context.config.toolSearch, state.loadedTools);
  const environment = toolEnvironment(context, keptContext(state), journal, hidden);
  // When the step began: a resumed turn's part of it begins now (its earlier part is in the turn).
  const began = turn.resumed ? { at: performance.now(), calls: context.ledger.attempts.length } : (state.stepBegan ?? { at: context.started, calls: context.callsAtStart });
  let outcomes: CallOutcome[];
  if (turn.resumed) outcomes = await resumedCalls(context, state, environment, journal, turn, calls);
  else {
    const overflowed = turn.overflowed;
    const sink = context.sink;
    // A turn going on after a compaction showed its calls before.
    if (!overflowed) for (const call of calls) sink?.push({ type: 'tool-call', step: state.step, call });
    const finished: ToolCallRecord[] = [];
    try {
      outcomes = await turnCalls(environment, journal, calls, overflowed?.finished ?? NO_RECORDS, finished);
    } catch (error) {
      // A re-ask the vendor refused as too long: the run compacts, then the turn goes on, its finished calls kept.
      const overflow = overflowOutcome(context, state, overflowed ? 'overflow' : undefined, error, { ...turn, overflowed: { finished } });
      if (overflow) return overflow;
      throw error;
    }
  }
  const unknown = outcomes.filter(isUnknownOutcome);
  const pending = outcomes.filter((outcome): outcome is PendingApproval => !isUnknownOutcome(outcome) && isPendingApproval(outcome));
  const finished = outcomes.filter((outcome): outcome is ToolCallRecord => !isUnknownOutcome(outcome) && !isPendingApproval(outcome));
  if (pending.length === 0 && unknown.length === 0) return { type: 'next', state: keepToolTurn(context, state, turn, finished, began) };
  const modelCalls = (turn.modelCalls ?? 0) + context.ledger.attempts.length - began.calls;
  const suspending = { turn, finished, pending, unknown, modelCalls, durationMs: (turn.durationMs ?? 0) + performance.now() - began.at };
  return { type: 'next', state: { ...state, next: { type: 'suspend', suspending } } };
}

/**
 * A turn's calls, run now: a call that finished before a re-ask was refused as too long keeps its
 * record (`before`), never run again. Each call's record is added to `finished` as it finishes,
 * so a failure of another call still leaves what ran.
 */
function turnCalls(environment: ToolRunEnvironment, journal: TurnJournal | undefined, calls: readonly ToolCallPart[], before: readonly ToolCallRecord[], finished: ToolCallRecord[]): Promise<CallOutcome[]> {
  const earlier = new Map(before.map((record) => [record.toolCallId, record]));
  const kept = (outcome: CallOutcome): CallOutcome => {
    if (!isUnknownOutcome(outcome) && !isPendingApproval(outcome)) finished.push(outcome);
    return outcome;
  };
  return settleAll(
    calls.map((call) => {
      const done = earlier.get(call.id);
      return (done ? Promise.resolve(done) : journaled(environment, journal, call, () => runToolCall(environment, call))).then(kept);
    }),
  );
}

const NO_RECORDS: readonly ToolCallRecord[] = Object.freeze([]);

/** A resumed turn's calls: those that ran keep their records; each one that waited goes as decided (never waiting for approval again). */
async function resumedCalls(context: RunContext, state: RunState, environment: ToolRunEnvironment, journal: TurnJournal | undefined, turn: ToolTurn, calls: readonly ToolCallPart[]): Promise<CallOutcome[]> {
  const resumed = turn.resumed as NonNullable<ToolTurn['resumed']>;
  const decisions = Object.values(resumed.decisions);
  const approved = decisions.filter((decision) => decision.type === 'approved').length;
  const rejected = decisions.filter((decision) => decision.type === 'rejected').length;
  if (context.listens('run.resumed')) context.emit('run.resumed', { suspensionId: resumed.suspensionId, approved, rejected });
  const finished = new Map(resumed.finished.map((record) => [record.toolCallId, record]));
  const decided = decidedEnvironment(environment);
  if (context.signal?.aborted) throw AbortedError.fromSignal(context.signal);
  // The resume's entry goes to the journal (a durable run's store) before any decided call runs.
  await context.journal?.flush(state.elapsedMs + performance.now() - context.started, context.ledger.attempts);
  context.resumeBegan?.();
  return settleAll(
    calls.map((part) => {
      const done = finished.get(part.id);
      if (done) return Promise.resolve(done);
      // Every call that waited has a decision (checked before the run started), so none waits again.
      return journaled(environment, journal, part, () => decidedCall(decided, part, resumed.decisions[part.id] ?? { type: 'rejected', reason: undefined }));
    }),
  );
}

/** A call that waited, as decided: approved or rejected, an unknown outcome settled by what happened, or run again. */
function decidedCall(environment: ToolRunEnvironment, part: ToolCallPart, decision: CallDecision): Promise<ToolCallRecord> {
  if (decision.type === 'outcome') {
    return Promise.resolve({ toolCallId: part.id, toolName: part.name, arguments: part.arguments, output: decision.output, isError: false, step: environment.step, durationMs: 0 });
  }
  return runToolCall(environment, part, decision.type === 'retry' ? { type: 'approved' } : decision).then(settledRecord);
}

/** The state after a turn whose tool calls all finished: the turn (with the arguments that ran) and its results kept. */
function keepToolTurn(context: RunContext, state: RunState, turn: ToolTurn, records: readonly ToolCallRecord[], began: NonNullable<RunState['stepBegan']>): RunState {
  const step = state.step;
  const { finishReason } = turn;
  const sink = context.sink;
  for (const record of records) sink?.push({ type: 'tool-result', step, record });
  const modelCalls = (turn.modelCalls ?? 0) + context.ledger.attempts.length - began.calls;
  const durationMs = (turn.durationMs ?? 0) + performance.now() - began.at;
  if (context.listens('step.end')) context.emitBuilt('step.end', { runId: context.runId, step: context.step, timestamp: Date.now(), finishReason, toolCalls: records.length, final: false });
  sink?.push({ type: 'step-end', step, finishReason });
  return {
    ...state,
    loadedTools: loadedTools(context, state, records),
    messages: [...state.messages, ...keptTurnMessages(turn, records)],
    steps: [...state.steps, { step, finishReason, text: turn.text, toolCalls: records.length, modelCalls, durationMs }],
    toolCalls: [...state.toolCalls, ...records],
    stepBegan: undefined,
    next: { type: 'ask-model' },
  };
}

/** The deferred tools loaded once the turn's `records` are in (reported as `tools.loaded` when a record loads one). */
function loadedTools(context: RunContext, state: RunState, records: readonly ToolCallRecord[]): RunState['loadedTools'] {
  const search = context.config.toolSearch;
  if (search === undefined) return state.loadedTools;
  const before = state.loadedTools ?? NO_TOOLS;
  const after = loadedAfter(search, before, records);
  if (after === before) return state.loadedTools;
  if (context.listens('tools.loaded')) context.emit('tools.loaded', { toolNames: after.slice(before.length), loaded: after.length });
  return after;
}

const NO_TOOLS: readonly string[] = Object.freeze([]);

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

/** Records a model call of a run this run called (an agent as a tool) in this run's ledger, marked as not its own. */
function recordNested(context: RunContext, attempt: AttemptRecord): void {
  context.nestedAttempts.add(attempt);
  context.ledger.record(attempt);
}

/** A resumed call's record: with a decision, a call never comes back pending. */
function settledRecord(outcome: ToolCallRecord | PendingApproval): ToolCallRecord {
  if (isPendingApproval(outcome)) throw new TypeError('a decided call cannot wait for approval again');
  return outcome;
}

/** A turn's environment as the run makes it: the tools' view, with the run's context and the kept messages its re-asks send. */
interface RunToolEnvironment extends ToolRunEnvironment {
  readonly context: RunContext;
  readonly kept: readonly Message[];
  /** Deferred tools the run has not loaded: a re-ask leaves them out of its request, as the step did (the re-asked tool aside). */
  readonly hidden: ReadonlySet<string> | undefined;
}

/**
 * What a turn's tool calls run with: the run's tools, guards, limits, events, and its re-asks over
 * `kept`. Its signal, events and re-asks are functions every turn shares (`this` is the
 * environment, which carries the context), where closures per turn would be held by each tool in flight.
 */
function toolEnvironment(context: RunContext, kept: readonly Message[], journal: TurnJournal | undefined, hidden: ReadonlySet<string> | undefined): ToolRunEnvironment {
  const { config } = context;
  const environment: RunToolEnvironment = {
    context,
    kept,
    hidden,
    journal,
    // Agents called as tools tie their runs to this one: its id, and its ledger for their model calls.
    parent: { runId: context.runId, record: (attempt) => recordNested(context, attempt), depth: context.depth, maxDepth: context.maxDepth, usage: () => context.budgetUsage(), preCheck: context.preCheck, ...(context.ledger.pricing === undefined ? {} : { pricing: context.ledger.pricing }), ...(context.sink === undefined ? {} : { sink: context.sink }) },
    tools: config.tools,
    deferred: config.toolSearch?.deferred,
    guards: config.guards,
    toolRetries: config.toolRetries,
    maxResultBytes: config.maxToolResultBytes,
    toolTimeoutMs: config.toolTimeoutMs,
    redact: config.redact,
    wrapCall: config.wrapCall,
    runId: context.runId,
    step: context.step,
    toolSignal,
    abortSignal: context.signal,
    listens,
    emit,
    emitBuilt,
    reAsk,
  };
  return environment;
}

/** The run's own signal: one shared by every run would collect their listeners. */
function toolSignal(this: RunToolEnvironment): AbortSignal {
  return this.context.toolSignal;
}

/** The run's events, as the tools report them. */
function listens(this: RunToolEnvironment, event: AgentEventName): boolean {
  return this.context.listens(event);
}

function emit<E extends AgentEventName>(this: RunToolEnvironment, event: E, payload: EventPayload<E>): void {
  this.context.emit(event, payload);
}

function emitBuilt<E extends AgentEventName>(this: RunToolEnvironment, event: E, payload: BuiltPayload<E>): void {
  this.context.emitBuilt(event, payload);
}

/** A call's arguments re-asked through the run's attempt loop, over the turn's kept messages. */
function reAsk(this: RunToolEnvironment, tool: AnyTool, guards: readonly ToolGuard[], call: ToolCallPart, first: Extract<ArgumentsCheck, { status: 'invalid' }>): Promise<ReAskResult> {
  return reAskArguments(this.context, this.kept, tool, guards, call, first, this.hidden);
}
