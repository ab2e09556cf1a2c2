import { AbortedError, type GateVerdict, type ValidationFailure } from '@keel/reliability';
import type { GateFeedback } from '@keel/reliability/internal';
import {
  abortedError,
  applyContinue,
  retryAfter,
  callAndJudge,
  decide,
  failFastError,
  type GateEvent,
  type GateSettings,
  preCheck,
  recordAttempt,
  startGate,
  stop,
  unreachableDecision,
  ZERO_USAGE,
  type UsageTotals,
} from '@keel/reliability/internal';
import type { ModelTarget } from '../agent/agent-options';
import type { Message } from '../model/message';
import type { ModelRequest, ModelResponse, ToolChoice } from '../model/model-provider-v1';
import { sanitizeUsage } from '../usage/sanitize-usage';
import { callProvider } from './call-provider';
import { attemptJudge, continuing } from './patch-and-continue';
import type { FallbackValue } from './output-fallback';
import { emit, type RunState } from './run-state';
import { ANSWER_TOOL_NAME, type ModeLevel, type TargetPlan } from './output-mode';
import { reportDowngrade, reportPlan, schemaRejectionOf } from './output-mode-report';
import { markDowngraded } from './schema-downgrade-rule';
import { partialsShown } from './partial-output';

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
  readonly fallback?: (lastFailure: ValidationFailure | undefined, reason: string) => Promise<FallbackValue | undefined>;
}

/** How a logical call ended, short of failing the run. */
export type AttemptOutcome<TValue> =
  | { readonly type: 'accepted'; readonly response: ModelResponse | undefined; readonly verdict: GateVerdict<TValue> | undefined; readonly attempts: number }
  | { readonly type: 'fallback'; readonly fallback: FallbackValue }
  | { readonly type: 'stopped'; readonly kind: string; readonly attempts: number };

/**
 * The one attempt loop, for final answers and tool-argument re-asks alike. Each attempt reads top
 * to bottom: PreCheck → provider call → judge → record once in the run's ledger → decide → apply.
 * The policy (`decide`) is pure data in, data out; this loop only carries out its decision.
 * @throws {ReliabilityFailFastError} when the policy stops (unless the stop's kind is an outcome).
 * @throws {AbortedError} when the run is aborted.
 */
export async function attemptLoop<TValue>(state: RunState, call: AttemptCall<TValue>): Promise<AttemptOutcome<TValue>> {
  const gate = startGate(call.settings, call.initial);
  if (call.continueFrom !== undefined) applyContinue(gate, { type: 'continue-output', partial: call.continueFrom, events: [] });
  const { signal, ledger } = state;
  const report = (event: GateEvent) => reportGateEvent(state, call, event);
  for (let attempt = 1; ; attempt++) {
    if (signal?.aborted) throw AbortedError.fromSignal(signal);
    const target = state.config.targets[gate.providerIndex] ?? (state.config.targets[0] as ModelTarget);
    const { request, level, plan } = requestOf(state, gate.providerIndex, target, call, gate.feedback);
    // A pending continuation is joined, a pending patch request applied, before the call's judge.
    const judging = attemptJudge(call.judge, gate);
    const admitted = () =>
      preCheck(gate, attempt, ledger.usage, signal, report).then((stopped) => {
        if (stopped) {
          stopped.events.forEach(report);
          throw failFastError(gate, attempt, stopped, ledger.attempts);
        }
        const invoke = () =>
          callProvider(state, continuing(state, gate, providerCall(call, target, request, attempt, plan))).catch((error: unknown) => {
            // A 400 that refused a schema the request sent lowers the output mode; the policy then retries (schema-downgrade).
            downgrade(state, gate.providerIndex, target, level, error);
            throw error;
          });
        return callAndJudge(invoke, judging.judge, signal);
      });
    // With PreCheck rules, PreCheck and the call happen together, so no concurrent re-ask spends in between.
    const judged = await (state.exclusive ? state.exclusive(admitted) : admitted());
    const usage = judged.response === undefined ? ZERO_USAGE : usageOf(state, call, target, judged.response, attempt);
    const { record, event } = recordAttempt(gate, attempt, judged, usage, judging.via());
    ledger.record(record);
    if (judged.kind === 'aborted') throw abortedError(judged, signal);
    if (event) report(event);
    const decision = await decide(gate, attempt, judged, ledger.usage, signal);
    decision.events.forEach(report);
    switch (decision.type) {
      case 'accept':
        return { type: 'accepted', response: judging.accepted(judged.response), verdict: judged.verdict, attempts: attempt };
      case 'retry':
      case 'retry-other':
        await retryAfter(gate, decision, signal);
        continue;
      case 'fallback': {
        const reason = decision.instead ? `${decision.kind}: ${failFastError(gate, attempt, decision.instead, []).message}` : 'a rule chose fallback';
        const fallback = call.fallback ? await call.fallback(gate.lastFailure, reason) : undefined;
        if (fallback) return { type: 'fallback', fallback };
        const stopped = decision.instead ?? stop(attempt, judged.kind, { kind: 'fallback-failed', label: decision.kind, phase: 'post-decide' });
        stopped.events.filter((part) => part.type === 'reliability.fail-fast').forEach(report);
        throw failFastError(gate, attempt, stopped, ledger.attempts);
      }
      case 'continue-output':
        // Cut at the token limit: the next attempt continues the cut output instead of regenerating it.
        applyContinue(gate, decision);
        continue;
      case 'fail-fast':
        if (call.outcomeKinds?.has(decision.kind)) return { type: 'stopped', kind: decision.kind, attempts: attempt };
        throw failFastError(gate, attempt, decision, ledger.attempts);
      default:
        return unreachableDecision(decision);
    }
  }
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
  state: RunState,
  index: number,
  target: ModelTarget,
  call: AttemptCall<TValue>,
  feedback: GateFeedback | undefined,
): { readonly request: ModelRequest; readonly level: ModeLevel; readonly plan: TargetPlan } {
  const { config } = state;
  const { level, startDowngrades } = config.outputModes.current(index);
  const plan = config.outputModes.plan(index, level);
  reportPlan(state, index, target, plan, startDowngrades);
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
 * for this agent (later runs start there), reports `output.mode-downgraded`, and marks the error
 * so the `schema-downgrade` rule retries at once. Any other error is left as it is.
 */
function downgrade(state: RunState, index: number, target: ModelTarget, level: ModeLevel, thrown: unknown): void {
  const rejected = schemaRejectionOf(thrown);
  if (rejected === undefined) return;
  const next = state.config.outputModes.reject(index, level, rejected);
  if (next === undefined) return;
  reportDowngrade(state, target, level, next, thrown);
  markDowngraded(thrown);
}

/** The ledger's entry for an answered call: bad counts are recorded as 0 and reported, never added up. */
function usageOf<TValue>(state: RunState, call: AttemptCall<TValue>, target: ModelTarget, response: ModelResponse, attempt: number): UsageTotals {
  const { invalid } = sanitizeUsage(response.usage);
  const toolCall = call.settings.toolCall;
  for (const { field, received } of invalid) {
    const names = { attempt, purpose: toolCall ? ('tool-re-ask' as const) : ('step' as const), provider: target.provider.name, model: target.model, field, received };
    emit(state, 'usage.invalid', toolCall ? { ...names, toolCallId: toolCall.id } : names);
  }
  return state.ledger.price(target.model, response.usage);
}

/** A gate event as a run event (naming the tool call of a re-ask), and as a stream part where a stream shows it. */
function reportGateEvent<TValue>(state: RunState, call: AttemptCall<TValue>, event: GateEvent): void {
  const { type, ...payload } = event;
  const toolCall = call.settings.toolCall;
  emit(state, type, (toolCall ? Object.assign(payload, { toolCallId: toolCall.id }) : payload) as never);
  const sink = state.sink;
  if (!sink || toolCall) return;
  if (event.type === 'validation.failed') sink.push({ type: 'validation-failed', step: state.step, attempt: event.attempt, message: event.message, issueCount: event.issueCount });
  if (event.type === 'reliability.retry') sink.push({ type: 'retry', step: state.step, attempt: event.attempt, errorKind: event.errorKind, discardStreamedText: state.shownText, discardPartialOutput: partialsShown(state) });
}
