import { type GateResult, type ReliabilityScope, runGate, type ValidationFailure } from '@keel/reliability';
import type { Message } from '../model/message';
import type { ModelRequest, ModelResponse, ToolChoice } from '../model/model-provider-v1';
import { sanitizeUsage } from '../usage/sanitize-usage';
import { callProvider } from './call-provider';
import { outputVerdict } from './output-verdict';
import { emit, type RunState } from './run-state';

/** A model call to make through the gate. */
export interface GatedCall {
  /** Kept context (never mutated). */
  readonly messages: readonly Message[];
  /** Ephemeral messages appended for this call only (tool-argument re-asks). */
  readonly ephemeral?: readonly Message[];
  readonly toolChoice?: ToolChoice;
  readonly purpose: 'step' | 'tool-retry';
  /** The tool call a re-ask is for: named in every event of the call. */
  readonly toolCallId?: string;
  /**
   * What a `fallback` rule decision resolves to (step calls): its value becomes the gate result's
   * value, with `via: 'fallback'`. Without it, a `fallback` decision fails fast.
   */
  readonly fallback?: (scope: ReliabilityScope<ModelResponse>, lastFailure: ValidationFailure | undefined) => Promise<unknown>;
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/** The request of one attempt; optional fields are set only when configured. */
function buildRequest(state: RunState, model: string, messages: readonly Message[], toolChoice: ToolChoice | undefined): ModelRequest {
  const { config } = state;
  const request: Mutable<ModelRequest> = { model, messages };
  if (state.system !== undefined) request.system = state.system;
  if (config.toolSpecifications.length > 0) {
    request.tools = config.toolSpecifications;
    request.toolChoice = toolChoice ?? AUTO;
  }
  if (config.maxTokens !== undefined) request.maxTokens = config.maxTokens;
  if (config.temperature !== undefined) request.temperature = config.temperature;
  if (config.stop !== undefined) request.stop = config.stop;
  const output = config.output;
  if (output?.options.nativeStructuredOutput) request.responseFormat = { type: 'json', schema: output.validator.jsonSchema };
  return request;
}

const AUTO: ToolChoice = Object.freeze({ type: 'auto' });

/**
 * Makes one model call through the reliability gate: PreCheck, the provider call, validation of
 * final turns, PostDecide (with feedback retries, backoff, provider switch), every attempt
 * recorded in the run's ledger and attempt list. Feedback goes in ephemeral messages after the
 * kept context: `[...kept, assistant(previous output), user(feedback)]`, latest failure only.
 */
export function gatedCall(state: RunState, call: GatedCall): Promise<GateResult<ModelResponse, unknown>> {
  const { config } = state;
  const isStep = call.purpose === 'step';
  const output = isStep ? config.output : undefined;
  const retryHint = output?.options.retryHint;
  const base = call.ephemeral ? [...call.messages, ...call.ephemeral] : call.messages;
  const reAskOf = call.toolCallId === undefined ? {} : { toolCallId: call.toolCallId };

  return runGate<ModelResponse, unknown>({
    call: (context) => {
      const target = config.targets[context.providerIndex] ?? (config.targets[0] as (typeof config.targets)[number]);
      const messages: readonly Message[] = context.feedback
        ? [
            ...base,
            { role: 'assistant', content: [{ type: 'text', text: context.feedback.previousOutput }], ephemeral: true },
            { role: 'user', content: context.feedback.text, ephemeral: true },
          ]
        : base;
      const request = buildRequest(state, target.model, messages, call.toolChoice);
      return callProvider(state, call.toolCallId === undefined ? { target, request, attempt: context.attempt, purpose: call.purpose } : { target, request, attempt: context.attempt, purpose: call.purpose, toolCallId: call.toolCallId });
    },
    validate: (response) => (isStep ? outputVerdict(config, response) : { status: 'accept', value: undefined, rawOutput: response.text }),
    usageOf: (response, context) => {
      const target = config.targets[context.providerIndex] ?? (config.targets[0] as (typeof config.targets)[number]);
      // The ledger's entry: bad counts are recorded as 0 and reported, never added up.
      const { invalid } = sanitizeUsage(response.usage);
      for (const { field, received } of invalid) {
        emit(state, 'usage.invalid', Object.assign({ attempt: context.attempt, purpose: call.purpose, provider: target.provider.name, model: target.model, field, received }, reAskOf));
      }
      return state.ledger.price(target.model, response.usage);
    },
    onAttempt: (record) => {
      state.attempts.push(record);
      state.ledger.record(record.usage);
    },
    preCheck: config.preCheck,
    postDecide: isStep ? config.stepRules : config.reaskRules,
    defaults: false,
    providerCount: config.targets.length,
    fallback: call.fallback,
    maxAttempts: config.maxAttempts,
    maxRetryAfterMs: config.maxRetryAfterMs,
    feedback: output?.options.feedback,
    feedbackForLLM: output?.options.feedbackForLLM,
    maxFeedbackTokens: output?.options.maxFeedbackTokens,
    retryHint,
    signal: state.signal,
    onEvent: (event) => {
      const { type, ...payload } = event;
      emit(state, type, Object.assign(payload, reAskOf) as never);
      if (state.sink && event.type === 'validation.failed') {
        state.sink.push({ type: 'validation-failed', step: state.step, attempt: event.attempt, message: event.message, issueCount: event.issueCount });
      }
      if (state.sink && event.type === 'reliability.retry') {
        state.sink.push({ type: 'retry', step: state.step, attempt: event.attempt, errorKind: event.errorKind, discardStreamedText: state.shownText });
      }
    },
    step: state.step,
    purpose: call.purpose,
    // Live: every rule reads the run's one ledger, so concurrent re-asks see each other's spend.
    runUsage: () => state.ledger.usage,
    exclusive: state.exclusive,
    maxRawOutputChars: config.maxRawOutputChars,
    runAttempts: () => state.attempts,
  });
}

