import type { GateVerdict, ValidationFailure } from '@keel/reliability';
import type { Attempted, FailFastDecision, GateFeedback, GateEvent, GateMemory, GateSettings, Judged, UsageTotals } from '@keel/reliability/internal';
import { BadResponseError, callAndJudge, classifyError, raceSignal, reduceError, runAttempts, ZERO_USAGE } from '@keel/reliability/internal';
import type { ModelTarget } from '../../agent/agent-options';
import type { BuiltPayload, CallPurpose } from '../../events/agent-events';
import type { Message } from '../../model/message';
import type { ModelRequest, ModelResponse, ToolChoice } from '../../model/model-provider-v1';
import type { WrappedCall } from '../../shared/call-wrapper';
import { estimateUsage } from '../../usage/estimate-usage';
import { sanitizeUsage } from '../../usage/usage-ledger';
import { consumeStream } from './stream-response';
import { type AttemptJudge, attemptJudge, continuing } from './patch-and-continue';
import type { FallbackValue } from '../output/output-fallback';
import type { RunContext } from '../state/run-context';
import { answerTurn } from '../output/answer-turn';
import { ANSWER_TOOL_NAME, type ModeLevel, type OutputMode, type TargetPlan } from '../output/output-mode';
import { checkResponse } from '../output/output-verdict';
import { reportDowngrade, reportPlan, schemaRejectionOf } from '../output/output-mode-report';
import { partialsShown } from '../output/partial-output';
import type { AttemptOutcome } from './attempt-outcome';

export type { AttemptOutcome };

/** One logical model call: a step's call, or the re-asks of one tool call's arguments. */
export interface AttemptCall<TValue> {
  /** Kept context (never mutated). */
  readonly messages: readonly Message[];
  /** The policy: rules, caps, feedback. */
  readonly settings: GateSettings<ModelResponse>;
  /** Judges each answer: accept (with the value), invalid (feedback follows) or a failure of its own kind. */
  readonly judge: (response: ModelResponse) => GateVerdict<TValue> | Promise<GateVerdict<TValue>>;
  /** The ephemeral messages that carry pending feedback after the kept context. */
  readonly feedbackMessages: (feedback: GateFeedback) => readonly Message[];
  readonly toolChoice?: ToolChoice;
  /** Where a tool-argument re-ask starts: the failure of the arguments the step produced. */
  readonly initial?: { readonly failure: ValidationFailure; readonly feedback: GateFeedback };
  /** Where a re-ask of arguments cut at the token limit starts: continuing their text (see `continue-output`). */
  readonly continueFrom?: string;
  /** Stop kinds that end this call with an outcome rather than failing the run (a tool call's `redundant`, ...). */
  readonly outcomeKinds?: ReadonlySet<string>;
  /** What a `fallback` decision stands in: a degraded value, or `undefined` when none applies (then the stop stands). */
  readonly fallback?: (lastFailure: ValidationFailure | undefined, reason: string, rule: string) => Promise<FallbackValue | undefined>;
  /**
   * A call that sends its own request to its own target, as it is (a compaction's summary): no
   * output mode, tools or feedback; `messages` and `feedbackMessages` are not read.
   */
  readonly sends?: { readonly target: ModelTarget; readonly request: ModelRequest };
}


/** One attempt of a run's call: the judged answer, its usage, and the judge that read it. */
interface RunAttempt<TValue> extends Attempted<ModelResponse, TValue> {
  /** The judge that joined a continuation or applied a patch, when one was pending. */
  readonly judging: AttemptJudge<TValue> | undefined;
}

/**
 * One logical model call through the one attempt loop (`runAttempts` of `@keel/reliability`),
 * for final answers and tool-argument re-asks alike. This file supplies what is the run's own:
 * the request of each attempt (output mode, feedback as ephemeral messages, a pending
 * continuation), the provider call, the run's ledger as the record, and the run's events.
 * @throws {ReliabilityFailFastError} when the policy stops (unless the stop's kind is an outcome).
 * @throws {AbortedError} when the run is aborted.
 */
export function attemptLoop<TValue>(state: RunContext, call: AttemptCall<TValue>): Promise<AttemptOutcome<TValue>> {
  const { signal, ledger } = state;
  const fallback = call.fallback;
  return runAttempts<ModelResponse, TValue, RunAttempt<TValue>, AttemptOutcome<TValue>>({
    settings: call.settings,
    signal,
    initial: call.initial,
    continueFrom: call.continueFrom,
    attempt: (memory, attempt) => makeAttempt(state, call, memory, attempt),
    exclusive: state.exclusive,
    runUsage: () => state.budgetUsage(),
    record: (record) => ledger.record(record),
    attempts: () => ledger.attempts,
    report: (event) => reportGateEvent(state, call, event),
    accept: ({ judged, judging }, attempt) => ({ type: 'accepted', response: judging ? judging.accepted(judged.response) : judged.response, verdict: judged.verdict, attempts: attempt }),
    fallback: fallback
      ? ({ lastFailure, reason, rule }) => fallback(lastFailure, reason, rule).then((value) => (value ? { value: { type: 'fallback', fallback: value } } : undefined))
      : undefined,
    stopped: (decision: FailFastDecision, attempt) => (call.outcomeKinds?.has(decision.kind) ? { type: 'stopped', kind: decision.kind, attempts: attempt } : undefined),
  });
}

/** Makes one attempt: its request, the provider call and the judge; a refused schema lowers the output mode. */
function makeAttempt<TValue>(state: RunContext, call: AttemptCall<TValue>, memory: GateMemory<ModelResponse>, attempt: number): Promise<RunAttempt<TValue>> {
  if (call.sends !== undefined) return sendAsIs(state, call, call.sends, attempt);
  const target = state.config.targets[memory.providerIndex] ?? (state.config.targets[0] as ModelTarget);
  const { request, level, plan } = requestOf(state, memory.providerIndex, target, call, memory.feedback);
  // A pending continuation is joined, a pending patch request applied, before the call's judge.
  const judging = memory.continuation === undefined && memory.feedback?.patch === undefined ? undefined : attemptJudge(call.judge, memory);
  const provider = providerCall(call, target, request, attempt, plan);
  const invoke = () => callProvider(state, memory.continuation === undefined ? provider : continuing(state, memory, provider));
  return callAndJudge(invoke, judging ? judging.judge : call.judge, state.signal).then((made): RunAttempt<TValue> => {
    // A 400 that refused a schema the request sent lowers the output mode: the attempt is `schema-refused`, which the policy retries.
    const judged: Judged<ModelResponse, TValue> = made.thrown !== undefined && downgrade(state, memory.providerIndex, target, level, made.thrown) ? { ...made, errorKind: 'schema-refused' } : made;
    const usage: UsageTotals = judged.response === undefined ? ZERO_USAGE : usageOf(state, call, target, request, judged.response, attempt);
    const via = judging?.via();
    return via === undefined ? { judged, usage, judging } : { judged, usage, via, judging };
  });
}

/** One attempt of a call that sends its own request (see `AttemptCall.sends`): the provider call and the judge. */
function sendAsIs<TValue>(state: RunContext, call: AttemptCall<TValue>, sends: NonNullable<AttemptCall<TValue>['sends']>, attempt: number): Promise<RunAttempt<TValue>> {
  const { target, request } = sends;
  const invoke = () => callProvider(state, { target, request, attempt, purpose: call.settings.callPurpose });
  return callAndJudge(invoke, call.judge, state.signal).then((judged): RunAttempt<TValue> => ({
    judged,
    usage: judged.response === undefined ? ZERO_USAGE : usageOf(state, call, target, request, judged.response, attempt),
    judging: undefined,
  }));
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };
const AUTO: ToolChoice = Object.freeze({ type: 'auto' });

const REQUIRED: ToolChoice = Object.freeze({ type: 'required' });
const ANSWER: ToolChoice = Object.freeze({ type: 'tool', name: ANSWER_TOOL_NAME });

/**
 * The request of one attempt: the kept context, then any pending feedback as ephemeral messages;
 * the tools and output format of the target's current output mode (`native`: a strict, lowered
 * response format; `tool`: the answer tool, a tool call required; strict tools lowered).
 */
function requestOf<TValue>(
  state: RunContext,
  index: number,
  target: ModelTarget,
  call: AttemptCall<TValue>,
  feedback: GateFeedback | undefined,
): { readonly request: ModelRequest; readonly level: ModeLevel; readonly plan: TargetPlan } {
  const { config } = state;
  const { level, plan, startDowngrades } = config.outputModes.now[index] ?? config.outputModes.resolve(index);
  if (startDowngrades.length > 0 || plan.outputChanges.length > 0 || plan.toolChanges.length > 0) reportPlan(state, index, target, plan, startDowngrades);
  const messages = feedback ? [...call.messages, ...call.feedbackMessages(feedback)] : call.messages;
  const request: Mutable<ModelRequest> = { model: target.model, messages };
  if (state.system !== undefined) request.system = state.system;
  const reAsk = call.settings.toolCall !== undefined;
  if (plan.tools.length > 0) {
    request.tools = plan.tools;
    // Tool mode: a step must call a tool; the answer tool alone is forced.
    request.toolChoice = call.toolChoice ?? (plan.answerTool === undefined || reAsk ? AUTO : plan.tools.length === 1 ? ANSWER : REQUIRED);
  }
  if (config.maxTokens !== undefined) request.maxTokens = config.maxTokens;
  if (config.temperature !== undefined) request.temperature = config.temperature;
  if (config.stop !== undefined) request.stop = config.stop;
  if (plan.responseFormat !== undefined && !reAsk) request.responseFormat = plan.responseFormat;
  return { request, level, plan };
}

function providerCall<TValue>(call: AttemptCall<TValue>, target: ModelTarget, request: ModelRequest, attempt: number, plan: TargetPlan) {
  const toolCall = call.settings.toolCall;
  if (toolCall !== undefined) return { target, request, attempt, purpose: 'tool-re-ask' as const, toolCallId: toolCall.id };
  return { target, request, attempt, purpose: 'step' as const, ...(plan.answerTool === undefined ? {} : { answerTool: plan.answerTool }), outputMode: plan.level.mode };
}

/**
 * When a provider's 400 refused a schema the request sent at `level`: lowers the target's level
 * for this agent (later runs start there), reports `output.mode-downgraded` and says so (the
 * attempt is then `schema-refused`, which the `schema-downgrade` rule retries at once). Any other
 * error, or a refusal with no level left below, is left as it is.
 */
function downgrade(state: RunContext, index: number, target: ModelTarget, level: ModeLevel, thrown: unknown): boolean {
  const rejected = schemaRejectionOf(thrown);
  if (rejected === undefined) return false;
  const next = state.config.outputModes.reject(index, level, rejected);
  if (next === undefined) return false;
  reportDowngrade(state, target, level, next, thrown);
  return true;
}

/**
 * The ledger's entry for an answered call. Counts the provider did not report (or reported as no
 * count) are reported as `usage.invalid` and recorded as an estimate from the request and the
 * answer, on the high side, so budgets still bound the run; never added up as they came.
 */
function usageOf<TValue>(state: RunContext, call: AttemptCall<TValue>, target: ModelTarget, request: ModelRequest, response: ModelResponse, attempt: number): UsageTotals {
  const { usage, invalid } = sanitizeUsage(response.usage);
  const toolCall = call.settings.toolCall;
  for (const { field, received } of invalid) {
    const names = { attempt, purpose: call.settings.callPurpose, provider: target.provider.name, model: target.model, field, received };
    state.emit('usage.invalid', toolCall ? { ...names, toolCallId: toolCall.id } : names);
  }
  return state.ledger.price(target.model, invalid.length === 0 ? usage : estimateUsage(request, response, usage, invalid).usage);
}

/** A gate event as a run event (naming the tool call of a re-ask), and as a stream part where a stream shows it. */
function reportGateEvent<TValue>(state: RunContext, call: AttemptCall<TValue>, event: GateEvent): void {
  const { type, ...payload } = event;
  if (type === 'reliability.loop-detected') state.loopsDetected++;
  const toolCall = call.settings.toolCall;
  state.emit(type, (toolCall ? Object.assign(payload, { toolCallId: toolCall.id }) : payload) as never);
  const sink = state.sink;
  if (!sink || toolCall) return;
  if (event.type === 'validation.failed') sink.push({ type: 'validation-failed', step: state.step, attempt: event.attempt, message: event.message, issueCount: event.issueCount });
  if (event.type === 'reliability.retry') sink.push({ type: 'retry', step: state.step, attempt: event.attempt, errorKind: event.errorKind, discardStreamedText: state.shownText, discardPartialOutput: partialsShown(state) });
}

/** One provider call of an attempt. */
interface ProviderCall {
  readonly target: ModelTarget;
  readonly request: ModelRequest;
  readonly attempt: number;
  readonly purpose: CallPurpose;
  /** The tool call a re-ask is for (`purpose: 'tool-re-ask'`), named in the call's events. */
  readonly toolCallId?: string;
  /** Output mode `tool`: the answer tool's name; its call is the final answer. */
  readonly answerTool?: string;
  /** How the final answer is asked for, on a step call of an agent with an output schema. */
  readonly outputMode?: OutputMode;
}

function toolChoiceLabel(request: ModelRequest): string {
  const choice = request.toolChoice;
  if (!choice) return request.tools?.length ? 'auto' : 'none';
  return choice.type === 'tool' ? `tool:${choice.name}` : choice.type;
}

/** The fields naming a call in its events (merged with `Object.assign`: an object spread in a payload is slow in V8). */
const callNames = ({ attempt, purpose, target, toolCallId }: ProviderCall) =>
  toolCallId === undefined ? { attempt, purpose, provider: target.provider.name, model: target.model } : { attempt, purpose, provider: target.provider.name, model: target.model, toolCallId };

/** The call as a call wrapper sees it. */
const modelCall = (state: RunContext, { attempt, toolCallId }: ProviderCall): WrappedCall =>
  toolCallId === undefined ? { type: 'model', runId: state.runId, step: state.step, attempt } : { type: 'model', runId: state.runId, step: state.step, attempt, toolCallId };

/** Ephemeral messages come last in a request (after the kept context): count them from the end. */
const countEphemeral = (messages: readonly Message[]) => {
  let count = 0;
  for (let index = messages.length - 1; index >= 0 && messages[index]?.ephemeral === true; index--) count++;
  return count;
};

/**
 * Calls the provider once, with `model.request` before and `model.response` or `model.error`
 * after. Streams when the run is streaming and the provider can.
 */
export async function callProvider(state: RunContext, call: ProviderCall): Promise<ModelResponse> {
  const { target, request, attempt, purpose } = call;
  if (state.listens('model.request')) {
    const payload: BuiltPayload<'model.request'> = {
      runId: state.runId, step: state.step, timestamp: Date.now(), attempt, purpose, provider: target.provider.name, model: target.model,
      messageCount: request.messages.length,
      ephemeralCount: countEphemeral(request.messages),
      toolCount: request.tools?.length ?? 0,
      toolChoice: toolChoiceLabel(request),
    };
    if (call.toolCallId !== undefined) payload.toolCallId = call.toolCallId;
    if (call.outputMode !== undefined && state.config.output) payload.outputMode = call.outputMode;
    const strict = strictToolCount(request);
    if (strict !== undefined) payload.strictToolCount = strict;
    state.emitBuilt('model.request', payload);
  }
  // Latency is reported only in events: skip the clock when nobody listens.
  const timed = state.listens('model.response') || state.listens('model.error');
  const started = timed ? performance.now() : 0;
  state.shownText = false;
  let response: ModelResponse;
  try {
    const stream = state.sink && purpose === 'step' ? target.provider.stream?.bind(target.provider) : undefined;
    const options = state.signal ? { signal: state.signal } : {};
    const invoke = stream ? () => consumeStream(state, stream(request, options), attempt, call.answerTool) : () => (state.signal ? raceSignal(target.provider.generate(request, options), state.signal) : target.provider.generate(request, options));
    const { wrapCall } = state.config;
    const answered: unknown = await (wrapCall ? raceSignal(wrapCall(modelCall(state, call), invoke), state.signal) : invoke());
    // Checked and copied (see checkResponse) before anything reads it, whatever a wrapper returned.
    response = checkResponse(answered);
    // Tool mode: a call of the answer tool is the final answer, its arguments the answer's text.
    if (call.answerTool !== undefined) response = answerTurn(response, call.answerTool);
  } catch (thrown) {
    // Throwing `undefined` or `null` breaks the spec like a missing response does.
    const error = thrown === undefined || thrown === null ? new BadResponseError({ message: `the provider threw ${String(thrown)}` }) : thrown;
    const { errorKind, retryAfterMs } = classifyError(error);
    const { name, message } = reduceError(error);
    state.emit('model.error', Object.assign(callNames(call), {
      errorKind: state.signal?.aborted ? 'aborted' : errorKind,
      errorName: name,
      message,
      latencyMs: performance.now() - started,
      ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
    }));
    throw error;
  }
  if (state.listens('model.content'))
    state.emit('model.content', {
      ...callNames(call),
      ...(request.system === undefined ? {} : { system: request.system }),
      input: JSON.stringify(request.messages),
      output: JSON.stringify(response.content),
    });
  if (!state.listens('model.response')) return response;
  const priced = state.ledger.price(target.model, response.usage);
  const payload: BuiltPayload<'model.response'> = {
    runId: state.runId, step: state.step, timestamp: Date.now(), attempt, purpose, provider: target.provider.name, model: target.model,
    finishReason: response.finishReason,
    latencyMs: performance.now() - started,
    toolCalls: response.content.reduce((count, part) => count + (part.type === 'tool-call' ? 1 : 0), 0),
    inputTokens: priced.inputTokens,
    outputTokens: priced.outputTokens,
    cacheReadTokens: priced.cacheReadTokens,
    cacheWriteTokens: priced.cacheWriteTokens,
  };
  if (call.toolCallId !== undefined) payload.toolCallId = call.toolCallId;
  if (priced.costUsd !== undefined) payload.costUsd = priced.costUsd;
  state.emitBuilt('model.response', payload);
  return response;
}

/** `strictToolCount` of `model.request`, when any tool is strict. */
function strictToolCount(request: ModelRequest): number | undefined {
  let count = 0;
  for (const tool of request.tools ?? []) if (tool.strict === true) count++;
  return count === 0 ? undefined : count;
}
