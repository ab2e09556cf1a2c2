import { AbortedError } from '@keel/reliability';
import { MaxDepthExceededError } from '../errors/max-depth-exceeded-error';
import type { RunInput, RunOptions, RunResult } from '../agent/run-result';
import type { StreamSink } from '../agent/stream-part';
import type { AgentEventName, BuiltPayload, EventPayload } from '../events/agent-events';
import type { EventBus } from '../events/event-bus';
import type { Message } from '../model/message';
import type { ParentRun } from '../tools/parent-run';
import { StaleRunOwnerError } from '../errors/stale-run-owner-error';
import { type RunUsage, UsageLedger } from '../usage/usage-ledger';
import type { UsageTotals } from '@keel/reliability/internal';
import { checkRunOptions } from './state/check-run-options';
import { nestedLedgerOf } from './state/forwarding-ledger';
import type { RunConfig } from './state/run-config';
import { runLock, type RunContext } from './state/run-context';
import { inputAsMessages, keptInputMessages, runSystem } from './state/run-input';
import { type RunJournal, saveCheckpoint } from './state/run-journal';
import type { CallDecision, NextStep, RunState, StepOutcome } from './state/run-state';
import type { RunStateSnapshot } from './state/run-state-snapshot';
import type { StateSigner } from './state/state-signer';
import { askModel } from './steps/ask-model';
import { callTools } from './steps/call-tools';
import { compactContext } from './steps/compact-context';
import { end, runEnded } from './steps/end';
import { loadMemory, releaseMemory } from './steps/load-memory';
import { suspend } from './steps/suspend';

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
  };
  /** The run whose tool call this run is (`agent.asTool()`). */
  readonly parent?: ParentRun;
  /** A durable run's checkpoints: its state after every step and around every tool call; the run waits for each. */
  readonly journal?: RunJournal;
  /** Continues a durable run from its last checkpoint (`agent.recover()`). */
  readonly recovered?: RunState;
}

type Outcome = StepOutcome<RunResult<unknown>>;

/**
 * The driver of a run: take the run's state, run its next step, store the new state, repeat,
 * until a step ends the run. Every step is a file of `steps/`; the state between two steps is one
 * plain value ({@link RunState}), a checkpoint in the run store when the run is durable.
 */
async function drive(context: RunContext, state: RunState): Promise<RunResult<unknown>> {
  // `state` is the parameter itself, reassigned: a separate variable would keep the first state alive as long as the run.
  // Set once a step ended the run (it reported `run.end`): a failure after it (the store could not
  // write the result) is thrown, never reported as a second end of the same run.
  let ended = false;
  try {
    if (context.journal) await saveCheckpoint(context, state);
    for (;;) {
      const outcome = await nextStep(context, state);
      if (outcome.type === 'done') {
        ended = true;
        if (context.journal) await context.journal.finished(outcome.result);
        return outcome.result;
      }
      state = outcome.state;
      if (context.journal) await saveCheckpoint(context, state);
    }
  } catch (error) {
    releaseMemory(context);
    // The last checkpoint stands, marked failed: `recover` goes on from it. A stale owner writes nothing.
    if (context.journal && !StaleRunOwnerError.isInstance(error)) await context.journal.failed().catch(() => undefined);
    const aborted = context.signal?.aborted === true || AbortedError.isInstance(error);
    if (!ended) runEnded(context, state, aborted ? 'aborted' : 'error', undefined, error);
    if (aborted && context.signal && !AbortedError.isInstance(error)) throw AbortedError.fromSignal(context.signal);
    throw error;
  }
}

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
  // A resumed run (a suspension decided) or a recovered one (a durable run's last checkpoint) goes on as it was.
  const resumed: RunStateSnapshot | RunState | undefined = extras.resume?.state ?? extras.recovered;
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
  // The usage, attempts and budgets of a resumed run go on from where it suspended (or was checkpointed).
  if (resumed) for (const attempt of resumed.attempts) ledger.record(attempt);
  const context: RunContext = {
    config,
    // A resumed run keeps its id: a memory store keyed by it replaces, never duplicates, the exchange.
    runId,
    parentRunId: parent?.runId,
    parentToolCallId: parent?.toolCallId,
    nestedAttempts: undefined,
    system,
    signal,
    toolSignal: undefined,
    bus,
    ledger,
    sink,
    step: resumed ? resumed.step : 0,
    shownText: false,
    exclusive: preCheck.length > 0 ? runLock(signal) : undefined,
    loopsDetected: 0,
    depth,
    maxDepth,
    budgetUsage: parent ? parent.usage : ownUsage,
    preCheck,
    conversationId,
    history: NO_MESSAGES,
    memoryUse: 'none',
    started: performance.now(),
    stepStarted: 0,
    callsBefore: ledger.attempts.length,
    sealing: extras.sealing,
    resumeBegan: extras.resume?.began,
    journal: extras.journal,
    listens,
    emit,
    emitBuilt,
  };
  const usage = ledger.snapshot();
  const first = extras.resume
    ? resumedState(extras.resume.state, extras.resume.decisions, config, usage)
    : extras.recovered
      ? recoveredState(extras.recovered, config, usage)
      : startState(runId, conversationId, tenant, system, text ? given : keptInputMessages(given), config, usage);
  const primary = config.targets[0] as RunConfig['targets'][number];
  if (context.listens('run.start')) {
    const payload: BuiltPayload<'run.start'> = { runId, step: context.step, timestamp: Date.now(), provider: primary.provider.name, model: primary.model };
    if (conversationId !== undefined) payload.conversationId = conversationId;
    context.emitBuilt('run.start', payload);
  }
  return drive(context, first);
}

const NO_MESSAGES: readonly never[] = Object.freeze([]);

/** `RunContext.budgetUsage` of a run no other run started: its own ledger's. */
function ownUsage(this: RunContext): UsageTotals {
  return this.ledger.usage;
}

/** `RunContext.listens`: whether anything listens to `event`. */
function listens(this: RunContext, event: AgentEventName): boolean {
  return this.bus.listeners.has(event);
}

/** `RunContext.emit`: the payload with the run's `runId` (and its caller's), `step` and `timestamp`. */
function emit<E extends AgentEventName>(this: RunContext, event: E, payload: EventPayload<E>): void {
  if (!this.bus.listeners.has(event)) return;
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
 * A run's state with every field present and in one order (an absent one is `undefined`, which
 * JSON leaves out). Every state of every run then shares one shape, so a step's
 * `{ ...state, next }` is a cheap copy; a state built with conditional spreads makes each later
 * copy several times slower.
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
    next: config.memory ? { type: 'load-memory', then: call } : call,
  });
}

/**
 * The state a recovered durable run goes on from: its last checkpoint, memory's conversation
 * loaded again first (it is never checkpointed), and the time it had run so far.
 */
function recoveredState(recovered: RunState, config: RunConfig, usage: RunUsage): RunState {
  const next = recovered.next;
  return runState({ ...recovered, usage, next: config.memory && next.type !== 'load-memory' ? { type: 'load-memory', then: next } : next });
}

/** A signal aborted by the caller's or, after `timeoutMs`, with a `TimeoutError` reason. */
function runDeadline(timeoutMs: number, caller: AbortSignal | undefined): { readonly signal: AbortSignal; readonly clear: () => void } {
  const controller = new AbortController();
  const forward = () => controller.abort(caller?.reason);
  if (caller?.aborted) forward();
  else caller?.addEventListener('abort', forward, { once: true });
  const timer = setTimeout(() => controller.abort(new DOMException(`the run took longer than its timeoutMs (${timeoutMs} ms)`, 'TimeoutError')), timeoutMs);
  return {
    signal: controller.signal,
    clear: () => {
      clearTimeout(timer);
      caller?.removeEventListener('abort', forward);
    },
  };
}
