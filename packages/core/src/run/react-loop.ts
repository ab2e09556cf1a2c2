import { AbortedError, KeelError } from '@keel/reliability';
import { MemoryStoreError } from '../errors/memory-store-error';
import { formatPath, raceSignal, reduceError } from '@keel/reliability/internal';
import type { RunInput, RunOptions, RunRecord, RunResult, StepRecord } from '../agent/run-result';
import type { StreamSink } from '../agent/stream-part';
import { MaxStepsExceededError } from '../errors/max-steps-exceeded-error';
import type { EventBus } from '../events/event-bus';
import type { MemoryRun, MemoryStore } from '../memory/memory-store';
import type { AssistantMessage, Message, ToolCallPart } from '../model/message';
import type { FinishReason, ModelResponse } from '../model/model-provider-v1';
import type { ParentRun } from '../tools/parent-run';
import { type ApprovalDecision, isPendingApproval, type PendingApproval } from '../tools/pending-approval';
import { runToolCall, type ToolRunEnvironment } from '../tools/run-tool-call';
import { toResultPart, type ToolCallRecord } from '../tools/tool-result';
import { UsageLedger } from '../usage/usage-ledger';
import { ForwardingLedger } from './forwarding-ledger';
import { type RunStateSnapshot, sealState } from './run-state-snapshot';
import type { StateSigner } from './state-signer';
import { reAskArguments } from './tool-re-ask';
import type { RunConfig } from './run-config';
import { emit, listens, runLock, type RunState } from './run-state';
import { checkRunOptions } from './check-run-options';
import { checkMessages } from './check-messages';
import { inputAsMessages, keptInputMessages, runSystem } from './run-input';
import { type StepOutcome, stepOutcome } from './step-outcome';

/** What a result says about the answer. */
type Answer = Pick<StepOutcome, 'value' | 'provenance' | 'repairs' | 'coercions' | 'issues'>;

const NO_PENDING: readonly [] = Object.freeze([]) as readonly [];

/** What a run needs besides its input, for suspending, resuming, and running as another run's tool. */
export interface LoopExtras {
  /** Signs the state of a run that suspends, naming the agent, valid for `ttlMs` (see {@link RunStateSnapshot}). */
  readonly sealing?: { readonly signer: StateSigner; readonly agent: () => Promise<string>; readonly ttlMs: number };
  /** Continues a suspended run: its opened state and the decision of each pending call. */
  readonly resume?: {
    readonly state: RunStateSnapshot;
    readonly decisions: ReadonlyMap<string, ApprovalDecision>;
    /** Told once the decided calls are about to run (before it, a failed resume has run nothing). */
    readonly began: () => void;
  };
  /** The run whose tool call this run is (`agent.asTool()`). */
  readonly parent?: Omit<ParentRun, 'toolCallId'>;
}

/**
 * Runs the ReAct loop: a gated model call per step; tool calls run concurrently (each with its own
 * argument re-asks) and their results feed the next step; a final turn ends the run. Kept
 * messages never contain ephemeral ones; memory receives the accepted exchange only.
 */
export function reactLoop(config: RunConfig, bus: EventBus, input: RunInput, given: RunOptions | undefined, sink?: StreamSink, extras: LoopExtras = {}): Promise<RunResult<unknown>> {
  // Not an async function, so that a run without a deadline is the loop itself (no frame waiting
  // on it while it runs); every failure still arrives as a rejection, never as a throw.
  try {
    const options = checkRunOptions(given);
    const timeoutMs = options.timeoutMs;
    if (timeoutMs === undefined) return loop(config, bus, input, options, options.signal, sink, extras);
    const deadline = runDeadline(timeoutMs, options.signal);
    return loop(config, bus, input, options, deadline.signal, sink, extras).finally(deadline.clear);
  } catch (error) {
    return Promise.reject(error);
  }
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

async function loop(config: RunConfig, bus: EventBus, input: RunInput, options: RunOptions, signal: AbortSignal | undefined, sink: StreamSink | undefined, extras: LoopExtras): Promise<RunResult<unknown>> {
  const resumed = extras.resume?.state;
  const given = resumed ? [] : inputAsMessages(input);
  const system = resumed ? resumed.system : runSystem(config.system, given);
  const parent = extras.parent;
  const state: RunState = {
    config,
    // A resumed run keeps its id: a memory store keyed by it replaces, never duplicates, the exchange.
    runId: resumed ? resumed.runId : (options.runId ?? globalThis.crypto.randomUUID()),
    parentRunId: parent?.runId,
    system,
    signal,
    toolSignal: undefined,
    bus,
    ledger: parent ? new ForwardingLedger(config.pricing, parent.record) : new UsageLedger(config.pricing),
    sink,
    step: 0,
    shownText: false,
    exclusive: config.preCheck.length > 0 ? runLock(signal) : undefined,
  };
  const startedAt = resumed ? resumed.startedAt : Date.now();
  // Milliseconds the run was under way before this part of it (a resumed run's earlier parts).
  const elapsedBefore = resumed ? resumed.elapsedMs : 0;
  const started = performance.now();
  const conversationId = config.memory ? (resumed ? (resumed.conversationId ?? 'default') : (options.conversationId ?? 'default')) : undefined;
  // A resumed run works for the tenant its state was signed for (the resume checked it).
  const tenant = resumed ? resumed.tenant : options.tenant;
  const primary = config.targets[0] as RunConfig['targets'][number];
  if (listens(state, 'run.start')) emit(state, 'run.start', { provider: primary.provider.name, model: primary.model, ...(conversationId === undefined ? {} : { conversationId }) });
  // The usage, attempts and budgets of a resumed run go on from where it suspended.
  if (resumed) for (const attempt of resumed.attempts) state.ledger.record(attempt);

  const memoryRun: MemoryRun = state.signal ? { runId: state.runId, signal: state.signal } : { runId: state.runId };
  let loaded = false;
  let appended = false;
  const loadMemory = (memory: MemoryStore, id: string, run: MemoryRun) => {
    loaded = true;
    return Promise.resolve().then(() => memory.load(id, run));
  };
  /** Lets go of what memory's `load` took when the run ends without appending (a failure, an abort, a suspension). */
  const releaseMemory = () => {
    const memory = config.memory;
    if (loaded && !appended && memory?.release && conversationId !== undefined) {
      // Not awaited: a store that cannot release (its backend is down, say) must neither hold
      // the run nor hide why it failed.
      Promise.resolve()
        .then(() => memory.release?.(conversationId, memoryRun))
        .catch(() => undefined);
    }
  };
  const runMessages: Message[] = [];
  const steps: StepRecord[] = [];
  const toolCalls: ToolCallRecord[] = [];
  let finishReason: FinishReason = 'other';

  /** What every result holds, however the run ended. */
  const record = (text: string): RunRecord => ({
    runId: state.runId,
    text,
    // The run is over when a result is made, so its lists are handed over as they are.
    messages: runMessages,
    steps,
    toolCalls,
    attempts: state.ledger.attempts,
    usage: state.ledger.snapshot(),
    finishReason,
    startedAt,
    durationMs: elapsedBefore + performance.now() - started,
  });
  const complete = (text: string, answer: Answer): RunResult<unknown> => ({
    ...record(text),
    status: 'complete',
    value: answer.value,
    provenance: answer.provenance,
    repairs: answer.repairs,
    coercions: answer.coercions,
    issues: answer.issues,
    pendingApprovals: NO_PENDING,
  });
  const end = (status: 'ok' | 'error' | 'aborted' | 'suspended', error?: unknown) => {
    if (!listens(state, 'run.end')) return;
    const usage = state.ledger.snapshot();
    const reduced = error === undefined ? undefined : reduceError(error);
    emit(state, 'run.end', {
      status,
      durationMs: elapsedBefore + performance.now() - started,
      steps: steps.length,
      modelCalls: usage.modelCalls,
      inputTokens: usage.inputTokens,
      outputTokens: usage.outputTokens,
      cacheReadTokens: usage.cacheReadTokens,
      cacheWriteTokens: usage.cacheWriteTokens,
      ...(usage.costUsd === undefined ? {} : { costUsd: usage.costUsd }),
      ...(reduced ? { errorName: reduced.name, errorMessage: reduced.message } : {}),
    });
  };

  try {
    // Stores are raced against the signal: a store that never answers cannot hold the run.
    const history =
      config.memory && conversationId !== undefined
        ? checkMessages(await raceSignal(loadMemory(config.memory, conversationId, memoryRun), state.signal).catch(storeFailure('load')), 'memory.load').filter((message) => !message.ephemeral)
        : [];
    runMessages.push(...keptInputMessages(given));

    /** Ends a step whose tool calls all finished: the turn and its results are kept, the loop goes on. */
    const keepToolTurn = (step: number, response: Pick<ModelResponse, 'content' | 'text'>, records: readonly ToolCallRecord[], modelCalls: number, durationMs: number) => {
      const byId = new Map(records.map((record) => [record.id, record]));
      const assistant: AssistantMessage = {
        role: 'assistant',
        // The final arguments only: the raw text the model first wrote may be what was corrected.
        content: response.content.map((part) => (part.type === 'tool-call' ? { type: 'tool-call', id: part.id, name: part.name, arguments: (byId.get(part.id) as ToolCallRecord).arguments } : part)),
      };
      runMessages.push(assistant, { role: 'tool', content: records.map(toResultPart) });
      toolCalls.push(...records);
      for (const record of records) sink?.push({ type: 'tool-result', step, record });
      steps.push({ step, finishReason, text: response.text, toolCalls: records.length, modelCalls, durationMs });
      if (listens(state, 'step.end')) emit(state, 'step.end', { finishReason, toolCalls: records.length, final: false });
      sink?.push({ type: 'step-end', step, finishReason });
    };

    let firstStep = 1;
    if (resumed && extras.resume) {
      // The suspended step goes on without asking the model again: the calls that ran keep their
      // results; approved calls are checked again (schema, guards) and run; rejected ones are refused.
      const { decisions } = extras.resume;
      state.step = resumed.step;
      finishReason = resumed.turn.finishReason;
      runMessages.push(...resumed.messages);
      steps.push(...resumed.steps);
      toolCalls.push(...resumed.toolCalls);
      let approved = 0;
      for (const decision of decisions.values()) if (decision.type === 'approved') approved++;
      if (listens(state, 'run.resumed')) emit(state, 'run.resumed', { suspensionId: resumed.suspensionId, approved, rejected: decisions.size - approved });
      const resumedAt = performance.now();
      const kept = history.length === 0 ? runMessages.slice() : history.concat(runMessages);
      const environment: ToolRunEnvironment = { ...toolEnvironment(state, kept), reAsk: () => Promise.reject(new TypeError('an approved call is never re-asked')) };
      const finished = new Map(resumed.turn.finished.map((record) => [record.id, record]));
      if (state.signal?.aborted) throw AbortedError.fromSignal(state.signal);
      extras.resume.began();
      const parts = resumed.turn.assistant.content.filter((part): part is ToolCallPart => part.type === 'tool-call');
      const records = await settleAll(
        parts.map((part) => {
          const done = finished.get(part.id);
          if (done) return Promise.resolve(done);
          // Every pending call has a decision (checked before the run started), so none waits again.
          return runToolCall(environment, part, decisions.get(part.id) ?? { type: 'rejected', reason: undefined }).then(settledRecord);
        }),
      );
      keepToolTurn(resumed.step, { content: resumed.turn.assistant.content, text: resumed.turn.text }, records, resumed.turn.modelCalls, resumed.turn.durationMs + performance.now() - resumedAt);
      firstStep = resumed.step + 1;
    }

    for (let step = firstStep; step <= config.maxSteps; step++) {
      if (state.signal?.aborted) throw AbortedError.fromSignal(state.signal);
      state.step = step;
      const stepStarted = performance.now();
      const callsBefore = state.ledger.attempts.length;
      sink?.push({ type: 'step-start', step });
      if (listens(state, 'step.start')) emit(state, 'step.start', {});
      const kept = history.length === 0 ? runMessages.slice() : history.concat(runMessages);
      const outcome = await stepOutcome(state, kept);
      const response = outcome.response;
      finishReason = response?.finishReason ?? (outcome.provenance === 'model' ? 'error' : 'stop');
      const calls = outcome.provenance === 'model' && response ? response.content.filter((part): part is ToolCallPart => part.type === 'tool-call') : [];

      if (calls.length > 0 && response) {
        for (const call of calls) sink?.push({ type: 'tool-call', step, call });
        const environment = toolEnvironment(state, kept);
        const outcomes = await settleAll(calls.map((call) => runToolCall(environment, call)));
        const pending = outcomes.filter((outcome): outcome is PendingApproval => isPendingApproval(outcome));
        if (pending.length === 0) {
          keepToolTurn(step, response, outcomes as ToolCallRecord[], state.ledger.attempts.length - callsBefore, performance.now() - stepStarted);
          continue;
        }
        // Calls wait for approval: the run suspends with what it needs to go on, nothing appended to memory.
        const finished = outcomes.filter((outcome): outcome is ToolCallRecord => !isPendingApproval(outcome));
        for (const record of finished) sink?.push({ type: 'tool-result', step, record });
        const argumentsOf = new Map<string, unknown>([...finished.map((record) => [record.id, record.arguments] as const), ...pending.map((call) => [call.toolCallId, call.arguments] as const)]);
        const sealing = extras.sealing;
        if (!sealing) throw new TypeError('a run that can suspend needs a state signer');
        const suspended = await sealState(
          {
            agent: await sealing.agent(),
            ...(tenant === undefined ? {} : { tenant }),
            expiresAt: Date.now() + sealing.ttlMs,
            suspensionId: globalThis.crypto.randomUUID(),
            runId: state.runId,
            ...(conversationId === undefined ? {} : { conversationId }),
            ...(system === undefined ? {} : { system }),
            startedAt,
            suspendedAt: Date.now(),
            elapsedMs: elapsedBefore + performance.now() - started,
            step,
            messages: runMessages,
            steps,
            toolCalls,
            attempts: state.ledger.attempts,
            usage: state.ledger.snapshot(),
            turn: {
              assistant: { role: 'assistant', content: response.content.map((part) => (part.type === 'tool-call' ? { type: 'tool-call', id: part.id, name: part.name, arguments: argumentsOf.get(part.id) } : part)) },
              text: response.text,
              finishReason,
              finished,
              modelCalls: state.ledger.attempts.length - callsBefore,
              durationMs: performance.now() - stepStarted,
            },
            pending,
          },
          sealing.signer,
        );
        toolCalls.push(...finished);
        releaseMemory();
        if (listens(state, 'run.suspended')) {
          emit(state, 'run.suspended', { suspensionId: suspended.suspensionId, toolCallIds: pending.map((call) => call.toolCallId).join(', '), tools: pending.map((call) => call.toolName).join(', '), pending: pending.length });
        }
        const result: RunResult<unknown> = { ...record(''), status: 'suspended', pendingApprovals: suspended.pending, state: suspended };
        end('suspended');
        return result;
      }

      // A rule may accept a failed call ('ok'): then there is no response and no text.
      const text = outcome.provenance === 'model' ? (response?.text ?? '') : JSON.stringify(outcome.value);
      if (sink && config.output && sink.mode === 'buffer' && text.length > 0) sink.push({ type: 'text-delta', step, attempt: state.ledger.attempts.length - callsBefore, text });
      const final: AssistantMessage = { role: 'assistant', content: text.length > 0 ? [{ type: 'text', text }] : [] };
      runMessages.push(final);
      steps.push({ step, finishReason, text, toolCalls: 0, modelCalls: state.ledger.attempts.length - callsBefore, durationMs: performance.now() - stepStarted });
      if (listens(state, 'step.end')) emit(state, 'step.end', { finishReason, toolCalls: 0, final: true });
      sink?.push({ type: 'step-end', step, finishReason });
      if (config.memory && conversationId !== undefined) {
        appended = true;
        const memory = config.memory;
        await raceSignal(Promise.resolve().then(() => memory.append(conversationId, runMessages, memoryRun)), state.signal).catch(storeFailure('append'));
      }
      if ((outcome.repairs.length > 0 || outcome.coercions.length > 0) && listens(state, 'output.repaired')) {
        emit(state, 'output.repaired', {
          repairs: outcome.repairs.join(', '),
          coercions: outcome.coercions.length,
          coercedPaths: outcome.coercions.map((coercion) => formatPath(coercion.path)).join(', '),
        });
      }
      const result = complete(text, outcome);
      end('ok');
      return result;
    }
    throw new MaxStepsExceededError({ maxSteps: config.maxSteps, partial: record('') });
  } catch (error) {
    releaseMemory();
    const aborted = state.signal?.aborted === true || AbortedError.isInstance(error);
    end(aborted ? 'aborted' : 'error', error);
    if (aborted && state.signal && !AbortedError.isInstance(error)) throw AbortedError.fromSignal(state.signal);
    throw error;
  }
}

/**
 * Rethrows a store's failure typed: Keel errors (an abort, a busy conversation) as they are,
 * anything else (a plain error, a hostile thrown value) as a {@link MemoryStoreError} with it as cause.
 */
const storeFailure =
  (operation: 'load' | 'append') =>
  (error: unknown): never => {
    if (KeelError.isKeelError(error)) throw error;
    throw new MemoryStoreError({ operation, cause: error });
  };

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

function toolEnvironment(state: RunState, kept: readonly Message[]): ToolRunEnvironment {
  const { config } = state;
  return {
    // Agents called as tools tie their runs to this one: its id, and its ledger for their model calls.
    parent: { runId: state.runId, record: (attempt) => state.ledger.record(attempt) },
    tools: config.tools,
    guards: config.guards,
    toolRetries: config.toolRetries,
    maxResultBytes: config.maxToolResultBytes,
    toolTimeoutMs: config.toolTimeoutMs,
    redact: config.redact,
    wrapCall: config.wrapCall,
    runId: state.runId,
    step: state.step,
    // A signal per run, made on first use: one shared by every run would collect their listeners.
    toolSignal: () => state.signal ?? (state.toolSignal ??= new AbortController().signal),
    abortSignal: state.signal,
    listens: (event) => listens(state, event),
    emit: (event, payload) => emit(state, event, payload),
    reAsk: (tool, guards, call, first) => reAskArguments(state, kept, tool, guards, call, first),
  };
}
