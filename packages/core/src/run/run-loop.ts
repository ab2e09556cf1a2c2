import { AbortedError } from '@keel/reliability';
import { MaxDepthExceededError } from '../errors/max-depth-exceeded-error';
import type { RunInput, RunOptions, RunResult } from '../contracts/run-result';
import type { StreamSink } from '../contracts/stream-part';
import type { AgentEventName, BuiltPayload, EventPayload } from '../events/agent-events';
import type { EventBus } from '../events/event-bus';
import type { Message } from '@keel/provider';
import type { ParentRun } from '../tools/parent-run';
import { StaleRunOwnerError } from '../errors/stale-run-owner-error';
import { type RunUsage, UsageLedger } from '../usage/usage-ledger';
import type { TokenUsage } from '@keel/reliability';
import { checkRunOptions } from './state/check-run-options';
import { nestedLedgerOf } from './state/forwarding-ledger';
import type { RunConfig } from './state/run-config';
import { runLock, type RunContext } from './state/run-context';
import { EMPTY_HEAD, type JournalHead } from '../contracts/journal-head';
import type { JournalDraft } from './journal/journal-entry';
import { firstDraft } from './journal/first-draft';
import { JournalWriter, type JournalStore } from './journal/journal-writer';
import { transitionDraft } from './journal/state-delta';
import { loopsOf } from './steps/step-loops';
import { endDraft, failureDraft } from './journal/end-drafts';
import type { RunGate } from './journal/run-step';
import { inputAsMessages, keptInputMessages, runSystem } from './state/run-input';
import type { CallDecision, NextStep, RunState, StepOutcome } from '../contracts/run-state';
import type { RunStateSnapshot } from '../contracts/run-state-snapshot';
import type { StateSigner } from './state/state-signer';
import { askModel } from './steps/ask-model';
import { callTools } from './steps/call-tools';
import { compactContext } from './steps/compact-context';
import { end, runEnded } from './steps/end';
import { loadMemory, releaseMemory } from './steps/load-memory';
import { suspend } from './steps/suspend';
import { runDeadline } from './run-deadline';
import { ToolSourceObservation } from './tool-source-observation';

/** What a run needs besides its input, for suspending, resuming, running as another run's tool, and checkpoints. */
export interface RunExtras {
  /** Signs the state of a run that suspends, naming the agent, valid for `ttlMs` (see {@link RunStateSnapshot}). */
  readonly sealing?: { readonly signer: StateSigner; readonly agent: () => Promise<string>; readonly ttlMs: number };
  /** Continues a suspended run: its opened state and the decision of each pending call. */
  readonly resume?: {
    readonly state: RunStateSnapshot;
    readonly decisions: ReadonlyMap<string, CallDecision>;
    /** Told once the decided calls are about to run (before it, a failed resume has run nothing). */
    readonly began: () => void;
    /** Where the run's journal stands in its store (a durable run), when the state does not say. */
    readonly head?: JournalHead;
  };
  /** The run whose tool call this run is (`agent.asTool()`). */
  readonly parent?: ParentRun;
  /** A durable run's store: each entry of its journal is appended there before the run goes on. */
  readonly store?: JournalStore;
  /** Continues a run from its journal (`agent.recover()`, `agent.iter({ journal })`): its folded state and where its chain stands. */
  readonly continued?: { readonly state: RunState; readonly head: JournalHead };
  /** Told after each step with the entries written since the step before; the run waits for it (`agent.iter()`). */
  readonly gate?: RunGate;
}

type Outcome = StepOutcome<RunResult<unknown>>;

/**
 * The driver of a run: take the run's state, run its next step, write what the step added to the
 * run's journal, repeat, until a step ends the run. Every step is a file of `steps/`; the state
 * between two steps is one plain value ({@link RunState}), the fold of the journal so far.
 */
async function drive(context: RunContext, state: RunState, first: JournalDraft | undefined, sources: ToolSourceObservation | undefined): Promise<RunResult<unknown>> {
  // `state` is the parameter itself, reassigned: a separate variable would keep the first state alive as long as the run.
  // Set once a step ended the run (it reported `run.end`): a failure after it (the store could not
  // write the result) is thrown, never reported as a second end of the same run.
  let ended = false;
  const { journal, gate } = context;
  try {
    if (journal && first?.type === 'resume') journal.defer(first);
    else if (journal && first) await journal.write([first], elapsedOf(context, state), context.ledger.attempts);
    for (;;) {
      const current = stepContext(context, stepOf(state));
      const outcome = await nextStep(sources ? sources.enter(current) : current, state);
      if (outcome.type === 'done') {
        ended = true;
        // A suspension wrote its own entry: its sealed state names where the journal stood after it.
        if (journal && outcome.result.status !== 'suspended') await journal.write([endDraft(state, outcome.state, outcome.result)], elapsedOf(context, outcome.state), context.ledger.attempts);
        if (gate) await gate.step(outcome.state);
        return outcome.result;
      }
      const draft = journal && transitionDraft(state, outcome.state);
      state = outcome.state;
      if (journal && draft) {
        await journal.write([draft], elapsedOf(context, state), context.ledger.attempts);
        if (gate) await gate.step(state);
      }
    }
  } catch (error) {
    releaseMemory(context, state);
    const aborted = context.signal?.aborted === true || AbortedError.isInstance(error);
    const failed = { ...state, loops: state.loops + loopsOf(error) };
    // The journal stands, its last entry a failure: `recover` goes on from it. A stale owner writes
    // nothing, nor one whose entries never landed (see `JournalWriter.wrote`).
    if (journal?.wrote && !ended && !StaleRunOwnerError.isInstance(error)) {
      await journal.write([failureDraft(failed, error, aborted, context.ledger.snapshot())], elapsedOf(context, state), context.ledger.attempts).catch(() => undefined);
    }
    if (!ended) runEnded(stepContext(context, stepOf(state)), failed, aborted ? 'aborted' : 'failed', undefined, error);
    if (aborted && context.signal && !AbortedError.isInstance(error)) throw AbortedError.fromSignal(context.signal);
    throw error;
  }
}

/**
 * The step the run's next step belongs to (its events name it): `ask-model` begins the next one,
 * as does a compaction that makes room for it; a compaction for a re-ask of a turn's calls belongs to that turn.
 */
function stepOf(state: RunState): number {
  const next = state.next;
  if (next.type === 'ask-model' || (next.type === 'compact-context' && next.turn === undefined)) return state.step + 1;
  return state.step;
}

/** The run's context for one step: the same run, at that step (nothing writes a context). */
function stepContext(context: RunContext, step: number): RunContext {
  return context.step === step ? context : { ...context, step };
}

/** Milliseconds the run has been under way: its earlier parts, then this one. */
const elapsedOf = (context: RunContext, state: RunState): number => state.elapsedMs + performance.now() - context.started;

/** The step the state names. */
function nextStep(context: RunContext, state: RunState): Promise<Outcome> {
  switch (state.next.type) {
    case 'load-memory':
      return loadMemory(context, state);
    case 'compact-context':
      return compactContext(context, state);
    case 'ask-model':
      return askModel(context, state);
    case 'call-tools':
      return callTools(context, state);
    case 'suspend':
      return suspend(context, state);
    case 'end':
      return end(context, state);
  }
}

/**
 * Starts a run (or resumes a suspended one): checks its options, sets its deadline, makes its
 * context and first state, reports `run.start`, and drives it. Not an async function, so that a
 * run without a deadline is the driver itself; every failure still arrives as a rejection.
 */
export function startRun(config: RunConfig, bus: EventBus, input: RunInput, given: RunOptions | undefined, sink?: StreamSink, extras: RunExtras = {}): Promise<RunResult<unknown>> {
  try {
    const options = given === undefined ? EMPTY : checkRunOptions(given);
    const timeoutMs = options.timeoutMs;
    if (timeoutMs === undefined) return begin(config, bus, input, options, options.signal, sink, extras);
    const deadline = runDeadline(timeoutMs, options.signal);
    return begin(config, bus, input, options, deadline.signal, sink, extras).finally(deadline.clear);
  } catch (error) {
    return Promise.reject(error);
  }
}

const EMPTY: RunOptions = Object.freeze({});

function begin(config: RunConfig, bus: EventBus, input: RunInput, options: RunOptions, signal: AbortSignal | undefined, sink: StreamSink | undefined, extras: RunExtras): Promise<RunResult<unknown>> {
  // A resumed run (a suspension decided) or a continued one (a journal folded) goes on as it was.
  const resumed: RunStateSnapshot | RunState | undefined = extras.resume?.state ?? extras.continued?.state;
  // A string, the usual input, is one user message: no check or copy is needed.
  const text = typeof input === 'string' && !resumed;
  const given: readonly Message[] = resumed ? [] : text ? [{ role: 'user', content: input }] : inputAsMessages(input);
  const parent = extras.parent;
  const runId = resumed ? resumed.runId : (options.runId ?? newRunId());
  const conversationId = config.memory ? (resumed ? (resumed.conversationId ?? 'default') : (options.conversationId ?? 'default')) : undefined;
  const system = resumed ? resumed.system : text ? config.system : runSystem(config.system, given);
  // A resumed run works for the tenant its state was signed for (the resume checked it).
  const tenant = resumed ? resumed.tenant : options.tenant;
  const ledger = parent ? nestedLedgerOf(config, parent) : new UsageLedger(config.pricing);
  const depth = parent ? parent.depth + 1 : 0;
  const maxDepth = parent ? Math.min(parent.maxDepth, config.maxDepth) : config.maxDepth;
  if (depth > maxDepth) throw new MaxDepthExceededError({ depth, maxDepth });
  // A nested run spends from the budgets above it: their rules, on the whole tree's usage.
  const preCheck = parent ? [...new Set([...config.preCheck, ...parent.preCheck])] : config.preCheck;
  // The usage, attempts and budgets of a resumed run go on from where it suspended (or its journal stands).
  if (resumed) for (const attempt of resumed.attempts) ledger.record(attempt);
  // A journal kept to be continued (a store, `iter()`) is chained with the agent's key.
  const chained = extras.store !== undefined || extras.gate !== undefined;
  const head = extras.continued?.head ?? extras.resume?.head ?? extras.resume?.state.journal ?? EMPTY_HEAD;
  // Entries are made only for what reads them: a store, the agent's journal listeners, `iter()`.
  const journaled = chained || config.journalListeners.length > 0;
  const journal = !journaled ? undefined : new JournalWriter({
    runId,
    head,
    attemptsSeen: ledger.attempts.length,
    store: extras.store,
    listeners: config.journalListeners,
    signer: chained ? extras.sealing?.signer : undefined,
    bus,
    observe: extras.gate?.observe,
  });
  const context: RunContext = {
    config,
    // A resumed run keeps its id: a memory store keyed by it replaces, never duplicates, the exchange.
    runId,
    parentRunId: parent?.runId,
    parentToolCallId: parent?.toolCallId,
    nestedAttempts: new Set(),
    system,
    signal,
    toolSignal: signal ?? new AbortController().signal,
    bus,
    ledger,
    sink,
    step: resumed ? resumed.step : 0,
    exclusive: preCheck.length > 0 ? runLock(signal) : undefined,
    depth,
    maxDepth,
    budgetUsage: parent ? parent.usage : ownUsage,
    preCheck,
    conversationId,
    started: performance.now(),
    callsAtStart: ledger.attempts.length,
    sealing: extras.sealing,
    resumeBegan: extras.resume?.began,
    journal,
    gate: extras.gate,
    listens,
    emit,
    emitBuilt,
  };
  const usage = ledger.snapshot();
  const first = extras.resume
    ? resumedState(extras.resume.state, extras.resume.decisions, config, usage)
    : extras.continued
      ? continuedState(extras.continued.state, config, usage)
      : startState(runId, conversationId, tenant, system, text ? given : keptInputMessages(given), config, usage);
  const primary = config.targets[0] as RunConfig['targets'][number];
  if (context.listens('run.start')) {
    const payload: BuiltPayload<'run.start'> = { runId, step: context.step, timestamp: Date.now(), provider: primary.provider.name, model: primary.model };
    if (conversationId !== undefined) payload.conversationId = conversationId;
    context.emitBuilt('run.start', payload);
  }
  // The sources of its tools (an MCP server's connection) report to the run while it lasts.
  const sources = config.toolSources.length === 0 ? undefined : new ToolSourceObservation(config.toolSources, context);
  const running = drive(context, first, journal && firstDraft(first, context, extras.resume?.decisions, extras.continued !== undefined), sources);
  return sources ? running.finally(() => sources.stop()) : running;
}

const NO_MESSAGES: readonly never[] = Object.freeze([]);

/** `RunContext.budgetUsage` of a run no other run started: its own ledger's. */
function ownUsage(this: RunContext): TokenUsage {
  return this.ledger.usage;
}

/** `RunContext.listens`: whether anything listens to `event`. */
function listens(this: RunContext, event: AgentEventName): boolean {
  return this.bus.listenerCount(event) > 0;
}

/** `RunContext.emit`: the payload with the run's `runId` (and its caller's), `step` and `timestamp`. */
function emit<E extends AgentEventName>(this: RunContext, event: E, payload: EventPayload<E>): void {
  if (this.bus.listenerCount(event) === 0) return;
  const { runId, parentRunId } = this;
  // Object.assign onto a fresh literal: an object spread here, then frozen, costs tens of times more in V8.
  const base = parentRunId === undefined ? { runId, step: this.step, timestamp: Date.now() } : { runId, parentRunId, step: this.step, timestamp: Date.now() };
  this.bus.emit(event, Object.assign(base, payload) as never);
}

/** `RunContext.emitBuilt`: a sub-agent's events name their caller after `runId`, rebuilt in that order (sub-agent runs only). */
function emitBuilt<E extends AgentEventName>(this: RunContext, event: E, payload: BuiltPayload<E>): void {
  const { runId, parentRunId } = this;
  this.bus.emit(event, (parentRunId === undefined ? payload : Object.assign({ runId, parentRunId }, payload)) as never);
}

/**
 * A new run id (a random UUID), as one flat string. `crypto.randomUUID()` joins its 36 characters
 * from about twenty pieces, and V8 keeps a joined string as its chain of pieces until something
 * reads it: about 480 bytes that every run in flight would hold in its context and state.
 * Reading one character makes V8 flatten it into one string of about 60 bytes.
 */
export function newRunId(): string {
  const id = globalThis.crypto.randomUUID();
  id.charCodeAt(0);
  return id;
}

/**
 * A run's state with every field present and in one order (an absent one is `undefined`, which JSON leaves out): every
 * state then shares one shape, so a step's `{ ...state, next }` is a cheap copy (conditional spreads make it several times slower).
 */
function runState(fields: RunState): RunState {
  return {
    runId: fields.runId,
    conversationId: fields.conversationId,
    tenant: fields.tenant,
    system: fields.system,
    startedAt: fields.startedAt,
    elapsedMs: fields.elapsedMs,
    step: fields.step,
    messages: fields.messages,
    steps: fields.steps,
    toolCalls: fields.toolCalls,
    attempts: fields.attempts,
    usage: fields.usage,
    compaction: fields.compaction,
    loadedTools: fields.loadedTools,
    history: fields.history,
    stepBegan: fields.stepBegan,
    loops: fields.loops,
    next: fields.next,
  };
}

/** The first state of a run: its input's kept messages, nothing done yet; memory is loaded first when there is one. */
function startState(
  runId: string,
  conversationId: string | undefined,
  tenant: string | undefined,
  system: string | undefined,
  messages: RunState['messages'],
  config: RunConfig,
  usage: RunUsage,
): RunState {
  const ask: NextStep = { type: 'ask-model' };
  return runState({
    runId,
    conversationId,
    tenant,
    system,
    startedAt: Date.now(),
    elapsedMs: 0,
    step: 0,
    messages,
    steps: NO_MESSAGES,
    toolCalls: NO_MESSAGES,
    attempts: NO_MESSAGES,
    usage,
    loops: 0,
    next: config.memory ? { type: 'load-memory', then: ask } : ask,
  });
}

/**
 * The state a suspended run goes on from: its suspended turn, to run as decided without asking
 * the model again (the calls that ran keep their results).
 */
function resumedState(resumed: RunStateSnapshot, decisions: ReadonlyMap<string, CallDecision>, config: RunConfig, usage: RunUsage): RunState {
  const { turn } = resumed;
  const call: NextStep = {
    type: 'call-tools',
    turn: {
      content: turn.assistant.content,
      text: turn.text,
      finishReason: turn.finishReason,
      modelCalls: turn.modelCalls,
      durationMs: turn.durationMs,
      resumed: { suspensionId: resumed.suspensionId, finished: turn.finished, decisions: Object.fromEntries(decisions) },
    },
  };
  return runState({
    runId: resumed.runId,
    conversationId: resumed.conversationId,
    tenant: resumed.tenant,
    system: resumed.system,
    startedAt: resumed.startedAt,
    elapsedMs: resumed.elapsedMs,
    step: resumed.step,
    messages: resumed.messages,
    steps: resumed.steps,
    toolCalls: resumed.toolCalls,
    attempts: resumed.attempts,
    usage,
    compaction: resumed.compaction,
    loadedTools: resumed.loadedTools,
    loops: resumed.loops ?? 0,
    next: config.memory ? { type: 'load-memory', then: call } : call,
  });
}

/**
 * The state a continued run goes on from: its journal folded, memory's conversation loaded again
 * first (it is never journaled), and the time it had run so far.
 */
function continuedState(continued: RunState, config: RunConfig, usage: RunUsage): RunState {
  const next = continued.next;
  const stepBegan = continued.stepBegan && { at: performance.now(), calls: continued.stepBegan.calls };
  return runState({ ...continued, usage, stepBegan, next: config.memory && next.type !== 'load-memory' ? { type: 'load-memory', then: next } : next });
}
