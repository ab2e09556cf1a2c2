import type { AttemptRecord, GateVerdict, TokenUsage, ValidationFailure } from '@keel/reliability';
import type { Attempted, AttemptDriver, FailFastDecision, FallbackRequest, GateFeedback, GateEvent, GateMemory, GateSettings, Judged } from '@keel/reliability/internal';
import { BadResponseError, callAndJudge, raceSignal, runAttempts, ZERO_USAGE } from '@keel/reliability/internal';
import type { ModelTarget } from '../../contracts/agent-options';
import type { Message, ModelRequest, ModelResponse, ToolChoice } from '@keel/provider';
import type { WrappedCall } from '../../shared/call-wrapper';
import { estimateUsage } from '../../usage/estimate-usage';
import { sanitizeUsage } from '../../usage/usage-ledger';
import { consumeStream } from './stream-response';
import { withKeelToolCallIds } from './keel-tool-call-ids';

const isToolCall = (part: ModelResponse['content'][number]): boolean => part.type === 'tool-call';
import { type ProviderCall, reportError, reportRequest, reportResponse } from './provider-call-events';
import { type AttemptJudge, attemptJudge, continuing } from './patch-and-continue';
import type { FallbackValue } from '../output/output-fallback';
import type { RunContext } from '../state/run-context';
import { answerTurn } from '../output/answer-turn';
import { ANSWER_TOOL_NAME, type ModeLevel, type TargetPlan } from '../output/output-mode';
import { checkResponse } from '../output/output-verdict';
import { reportDowngrade, reportPlan, schemaRejectionOf } from '../output/output-mode-report';
import { beginAnswerAttempt, noTextShown, retryPart, settleAnswer } from '../output/shown-answer';
import type { LoopCount } from '../steps/step-loops';
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
  /** What a `fallback` decision stands in, for the run: a degraded value, or `undefined` when none applies (then the stop stands). */
  readonly fallback?: (state: RunContext, lastFailure: ValidationFailure | undefined, reason: string, rule: string) => Promise<FallbackValue | undefined>;
  /**
   * A call that sends its own request to its own target, as it is (a compaction's summary): no
   * output mode, tools or feedback; `messages` and `feedbackMessages` are not read.
   */
  readonly sends?: { readonly target: ModelTarget; readonly request: ModelRequest };
  /** Counts the action loops the call's rules detect (a step's call: the run's loop count goes on from it). */
  readonly loops?: LoopCount;
  /** A step's call: the ids of the tool calls the run keeps (read only when the answer calls a tool); the answer's calls take ids unique beside them. */
  readonly keptToolCallIds?: () => ReadonlySet<string>;
  /** A step's call: deferred tools not loaded yet, left out of the request (see `tools/search/tool-search.ts`). */
  readonly hiddenTools?: ReadonlySet<string> | undefined;
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
  return runAttempts(new RunAttempts(state, call));
}

/**
 * The run's side of the attempt loop for one logical call (its driver). Methods rather than a
 * literal of closures: a call waiting for its model holds this one object, not a closure apiece.
 */
class RunAttempts<TValue> implements AttemptDriver<ModelResponse, TValue, RunAttempt<TValue>, AttemptOutcome<TValue>> {
  readonly settings: GateSettings<ModelResponse>;
  readonly signal: AbortSignal | undefined;
  readonly initial: AttemptCall<TValue>['initial'];
  readonly continueFrom: string | undefined;
  readonly exclusive: RunContext['exclusive'];
  /** The call's fallback (`useFallback`), when it has one: without it, a `fallback` decision stops. */
  readonly fallback: ((request: FallbackRequest<ModelResponse>) => Promise<{ readonly value: AttemptOutcome<TValue> } | undefined>) | undefined;

  constructor(
    private readonly state: RunContext,
    private readonly call: AttemptCall<TValue>,
  ) {
    this.settings = call.settings;
    this.signal = state.signal;
    this.initial = call.initial;
    this.continueFrom = call.continueFrom;
    this.exclusive = state.exclusive;
    this.fallback = call.fallback === undefined ? undefined : this.useFallback;
  }

  attempt(memory: GateMemory<ModelResponse>, attempt: number): Promise<RunAttempt<TValue>> {
    return makeAttempt(this.state, this.call, memory, attempt);
  }

  runUsage(): TokenUsage {
    return this.state.budgetUsage();
  }

  record(record: AttemptRecord): void {
    this.state.ledger.record(record);
  }

  attempts(): readonly AttemptRecord[] {
    return this.state.ledger.attempts;
  }

  report(event: GateEvent): void {
    reportGateEvent(this.state, this.call, event);
  }

  accept({ judged, judging }: RunAttempt<TValue>, attempt: number): AttemptOutcome<TValue> {
    const response = judging ? judging.accepted(judged.response) : judged.response;
    // A stream shows the accepted text: the patched or joined whole, not the reply as it came.
    if (judging && response && this.state.sink && this.call.settings.toolCall === undefined) settleAnswer(this.state, attempt, response.text);
    return { type: 'accepted', response, verdict: judged.verdict, attempts: attempt };
  }

  stopped(decision: FailFastDecision, attempt: number): AttemptOutcome<TValue> | undefined {
    return this.call.outcomeKinds?.has(decision.rule) ? { type: 'stopped', kind: decision.rule, attempts: attempt } : undefined;
  }

  /** The call's fallback value for a `fallback` decision (`undefined`: none applies); called as `fallback`. */
  useFallback({ lastFailure, reason, rule }: FallbackRequest<ModelResponse>): Promise<{ readonly value: AttemptOutcome<TValue> } | undefined> {
    const fallback = this.call.fallback as NonNullable<AttemptCall<TValue>['fallback']>;
    return fallback(this.state, lastFailure, reason, rule).then((value) => (value ? { value: { type: 'fallback', fallback: value } } : undefined));
  }
}

/** Makes one attempt: its request, the provider call and the judge; a refused schema lowers the output mode. */
function makeAttempt<TValue>(state: RunContext, call: AttemptCall<TValue>, memory: GateMemory<ModelResponse>, attempt: number): Promise<RunAttempt<TValue>> {
  if (call.sends !== undefined) return sendAsIs(state, call, call.sends, attempt);
  const target = state.config.targets[memory.providerIndex] ?? (state.config.targets[0] as ModelTarget);
  const { request, level, plan } = requestOf(state, memory.providerIndex, target, call, memory.feedback);
  // A pending continuation is joined, a pending patch request applied, before the call's judge.
  const judging = memory.continuation === undefined && memory.feedback?.patch === undefined ? undefined : attemptJudge(call.judge, memory);
  const streams = state.sink !== undefined && call.settings.toolCall === undefined;
  if (streams) beginAnswerAttempt(state, attempt, { continues: memory.continuation !== undefined, patch: memory.feedback?.patch !== undefined });
  const provider = providerCall(call, target, request, attempt, plan);
  const invoke = () => callProvider(state, memory.continuation === undefined ? provider : continuing(state, memory, provider));
  return callAndJudge(invoke, judging ? judging.judge : call.judge, state.signal).then((made): RunAttempt<TValue> => {
    // A 400 that refused a schema the request sent lowers the output mode: the attempt is `schema-refused`, which the policy retries.
    const judged: Judged<ModelResponse, TValue> = made.thrown !== undefined && downgrade(state, memory.providerIndex, target, level, made.thrown) ? { ...made, errorKind: 'schema-refused' } : made;
    const usage: TokenUsage = judged.response === undefined ? ZERO_USAGE : usageOf(state, call, target, request, judged.response, attempt);
    // Cut again: the joined text is shown before the next continuation reads on from it.
    if (streams && judging && judged.errorKind === 'truncated' && judged.response) settleAnswer(state, attempt, judging.accepted(judged.response)?.text ?? judged.response.text);
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
  const hidden = call.hiddenTools;
  const tools = hidden === undefined || hidden.size === 0 ? plan.tools : plan.tools.filter((tool) => !hidden.has(tool.name));
  if (tools.length > 0) {
    request.tools = tools;
    // Tool mode: a step must call a tool; the answer tool alone is forced.
    request.toolChoice = call.toolChoice ?? (plan.answerTool === undefined || reAsk ? AUTO : tools.length === 1 ? ANSWER : REQUIRED);
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
  return {
    target,
    request,
    attempt,
    purpose: 'step' as const,
    ...(plan.answerTool === undefined ? {} : { answerTool: plan.answerTool }),
    ...(call.keptToolCallIds === undefined ? {} : { keptToolCallIds: call.keptToolCallIds }),
    outputMode: plan.level.mode,
  };
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
function usageOf<TValue>(state: RunContext, call: AttemptCall<TValue>, target: ModelTarget, request: ModelRequest, response: ModelResponse, attempt: number): TokenUsage {
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
  if (type === 'reliability.loop-detected' && call.loops) call.loops.count += 1;
  const toolCall = call.settings.toolCall;
  state.emit(type, (toolCall ? Object.assign(payload, { toolCallId: toolCall.id }) : payload) as never);
  const sink = state.sink;
  if (!sink || toolCall) return;
  if (event.type === 'validation.failed') sink.push({ type: 'validation-failed', step: state.step, attempt: event.attempt, message: event.message, issueCount: event.issueCount });
  if (event.type === 'reliability.retry') sink.push(retryPart(state, event.attempt, event.errorKind));
}

/** The call as a call wrapper sees it. */
const modelCall = (state: RunContext, { attempt, toolCallId }: ProviderCall): WrappedCall =>
  toolCallId === undefined ? { type: 'model', runId: state.runId, step: state.step, attempt } : { type: 'model', runId: state.runId, step: state.step, attempt, toolCallId };

/**
 * Calls the provider once, with `model.request` before and `model.response` or `model.error`
 * after (see `provider-call-events.ts`). Streams when the run is streaming and the provider can.
 * Not an async function: while the provider works, the call holds one reaction to its answer,
 * not a suspended frame of its own.
 */
export function callProvider(state: RunContext, call: ProviderCall): Promise<ModelResponse> {
  if (state.listens('model.request')) reportRequest(state, call);
  // Latency is reported only in events: skip the clock when nobody listens.
  const started = state.listens('model.response') || state.listens('model.error') ? performance.now() : 0;
  if (state.sink) noTextShown(state);
  let answered: Promise<unknown>;
  try {
    answered = Promise.resolve(invokeProvider(state, call));
  } catch (thrown) {
    return Promise.reject(providerFailed(state, call, started, thrown));
  }
  return answered.then(
    (value) => providerAnswered(state, call, started, value),
    (thrown: unknown) => {
      throw providerFailed(state, call, started, thrown);
    },
  );
}

/** The provider's answer to the call's request: streamed when the run streams and the provider can, through the call wrapper when there is one. */
function invokeProvider(state: RunContext, call: ProviderCall): unknown {
  const { target, request } = call;
  const stream = state.sink && call.purpose === 'step' ? target.provider.stream?.bind(target.provider) : undefined;
  const options = state.signal ? { signal: state.signal } : {};
  const invoke = stream ? () => consumeStream(state, stream(request, options), call.attempt, call.answerTool, call.keptToolCallIds) : () => (state.signal ? raceSignal(target.provider.generate(request, options), state.signal) : target.provider.generate(request, options));
  const { wrapCall } = state.config;
  return wrapCall ? raceSignal(wrapCall(modelCall(state, call), invoke), state.signal) : invoke();
}

/** What the provider answered, checked and copied (in tool mode, the answer tool's call read as the answer); `model.content` and `model.response` report it. */
function providerAnswered(state: RunContext, call: ProviderCall, started: number, answered: unknown): ModelResponse {
  let response: ModelResponse;
  try {
    // Checked and copied (see checkResponse) before anything reads it, whatever a wrapper returned.
    response = checkResponse(answered);
    // Tool mode: a call of the answer tool is the final answer, its arguments the answer's text.
    if (call.answerTool !== undefined) response = answerTurn(response, call.answerTool);
    if (call.keptToolCallIds !== undefined && response.content.some(isToolCall)) response = withKeelToolCallIds(response, call.keptToolCallIds());
  } catch (thrown) {
    throw providerFailed(state, call, started, thrown);
  }
  if (state.listens('model.content') || state.listens('model.response')) reportResponse(state, call, started, response);
  return response;
}

/** A provider call that threw, or answered with no valid response: reported as `model.error`; returns the error the call fails with. */
function providerFailed(state: RunContext, call: ProviderCall, started: number, thrown: unknown): unknown {
  // Throwing `undefined` or `null` breaks the spec like a missing response does.
  const error = thrown === undefined || thrown === null ? new BadResponseError({ message: `the provider threw ${String(thrown)}` }) : thrown;
  reportError(state, call, started, error);
  return error;
}
