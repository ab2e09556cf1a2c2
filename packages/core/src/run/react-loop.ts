import { AbortedError, KeelError } from '@keel/reliability';
import { MemoryStoreError } from '../errors/memory-store-error';
import { formatPath, raceSignal, reduceError } from '@keel/reliability/internal';
import type { RunInput, RunOptions, RunResult, StepRecord } from '../agent/run-result';
import type { StreamSink } from '../agent/stream-part';
import { MaxStepsExceededError } from '../errors/max-steps-exceeded-error';
import type { EventBus } from '../events/event-bus';
import type { MemoryRun, MemoryStore } from '../memory/memory-store';
import type { AssistantMessage, Message, ToolCallPart } from '../model/message';
import type { FinishReason, ModelResponse } from '../model/model-provider-v1';
import { runToolCall, type ToolRunEnvironment } from '../tools/run-tool-call';
import { toResultPart, type ToolCallRecord } from '../tools/tool-result';
import { UsageLedger } from '../usage/usage-ledger';
import { reAskArguments } from './tool-re-ask';
import type { RunConfig } from './run-config';
import { emit, listens, runLock, type RunState } from './run-state';
import { checkRunOptions } from './check-run-options';
import { checkMessages } from './check-messages';
import { inputAsMessages, keptInputMessages, runSystem } from './run-input';
import { type StepOutcome, stepOutcome } from './step-outcome';

/** What a result says about the answer. */
type Answer = Pick<StepOutcome, 'value' | 'provenance' | 'repairs' | 'coercions' | 'issues'>;

const NO_ANSWER: Answer = Object.freeze({ value: undefined, provenance: 'model', repairs: Object.freeze([]), coercions: Object.freeze([]), issues: Object.freeze([]) });

/**
 * Runs the ReAct loop: a gated model call per step; tool calls run concurrently (each with its own
 * argument re-asks) and their results feed the next step; a final turn ends the run. Kept
 * messages never contain ephemeral ones; memory receives the accepted exchange only.
 */
export function reactLoop(config: RunConfig, bus: EventBus, input: RunInput, given: RunOptions | undefined, sink?: StreamSink): Promise<RunResult<unknown>> {
  // Not an async function, so that a run without a deadline is the loop itself (no frame waiting
  // on it while it runs); every failure still arrives as a rejection, never as a throw.
  try {
    const options = checkRunOptions(given);
    const timeoutMs = options.timeoutMs;
    if (timeoutMs === undefined) return loop(config, bus, input, options, options.signal, sink);
    const deadline = runDeadline(timeoutMs, options.signal);
    return loop(config, bus, input, options, deadline.signal, sink).finally(deadline.clear);
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

async function loop(config: RunConfig, bus: EventBus, input: RunInput, options: RunOptions, signal: AbortSignal | undefined, sink?: StreamSink): Promise<RunResult<unknown>> {
  const given = inputAsMessages(input);
  const system = runSystem(config.system, given);
  const state: RunState = {
    config,
    runId: options.runId ?? globalThis.crypto.randomUUID(),
    system,
    signal,
    toolSignal: undefined,
    bus,
    ledger: new UsageLedger(config.pricing),
    sink,
    step: 0,
    shownText: false,
    exclusive: config.preCheck.length > 0 ? runLock(signal) : undefined,
  };
  const startedAt = Date.now();
  const started = performance.now();
  const conversationId = config.memory ? (options.conversationId ?? 'default') : undefined;
  const primary = config.targets[0] as RunConfig['targets'][number];
  if (listens(state, 'run.start')) emit(state, 'run.start', { provider: primary.provider.name, model: primary.model, ...(conversationId === undefined ? {} : { conversationId }) });

  const memoryRun: MemoryRun = state.signal ? { runId: state.runId, signal: state.signal } : { runId: state.runId };
  let loaded = false;
  let appended = false;
  const loadMemory = (memory: MemoryStore, id: string, run: MemoryRun) => {
    loaded = true;
    return Promise.resolve().then(() => memory.load(id, run));
  };
  const runMessages: Message[] = [];
  const steps: StepRecord[] = [];
  const toolCalls: ToolCallRecord[] = [];
  let finishReason: FinishReason = 'other';

  const snapshot = (text: string, answer: Answer): RunResult<unknown> => ({
    runId: state.runId,
    text,
    value: answer.value,
    provenance: answer.provenance,
    repairs: answer.repairs,
    coercions: answer.coercions,
    issues: answer.issues,
    // The run is over when a result is made, so its lists are handed over as they are.
    messages: runMessages,
    steps,
    toolCalls,
    attempts: state.ledger.attempts,
    usage: state.ledger.snapshot(),
    finishReason,
    startedAt,
    durationMs: performance.now() - started,
  });
  const end = (status: 'ok' | 'error' | 'aborted', error?: unknown) => {
    if (!listens(state, 'run.end')) return;
    const usage = state.ledger.snapshot();
    const reduced = error === undefined ? undefined : reduceError(error);
    emit(state, 'run.end', {
      status,
      durationMs: performance.now() - started,
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

    for (let step = 1; step <= config.maxSteps; step++) {
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
        const records = await settleAll(calls.map((call) => runToolCall(environment, call)));
        // One record per call, in call order: the kept turn carries each call's final arguments.
        let next = 0;
        const assistant: AssistantMessage = {
          role: 'assistant',
          // The final arguments only: the raw text the model first wrote may be what was corrected.
          content: response.content.map((part) => (part.type === 'tool-call' ? { type: 'tool-call', id: part.id, name: part.name, arguments: (records[next++] as ToolCallRecord).arguments } : part)),
        };
        runMessages.push(assistant, { role: 'tool', content: records.map(toResultPart) });
        toolCalls.push(...records);
        for (const record of records) sink?.push({ type: 'tool-result', step, record });
        steps.push({ step, finishReason, text: response.text, toolCalls: calls.length, modelCalls: state.ledger.attempts.length - callsBefore, durationMs: performance.now() - stepStarted });
        if (listens(state, 'step.end')) emit(state, 'step.end', { finishReason, toolCalls: calls.length, final: false });
        sink?.push({ type: 'step-end', step, finishReason });
        continue;
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
      const result = snapshot(text, outcome);
      end('ok');
      return result;
    }
    throw new MaxStepsExceededError({ maxSteps: config.maxSteps, partial: snapshot('', NO_ANSWER) });
  } catch (error) {
    const memory = config.memory;
    if (loaded && !appended && memory?.release && conversationId !== undefined) {
      // Not awaited: a store that cannot release (its backend is down, say) must neither hold
      // the run nor hide why it failed.
      Promise.resolve()
        .then(() => memory.release?.(conversationId, memoryRun))
        .catch(() => undefined);
    }
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

function toolEnvironment(state: RunState, kept: readonly Message[]): ToolRunEnvironment {
  const { config } = state;
  return {
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
    reAsk: (tool, guards, call, failure) => reAskArguments(state, kept, tool, guards, call, failure),
  };
}
