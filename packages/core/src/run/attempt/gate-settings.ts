import type { ValidationFailure } from '@keel/reliability';
import { defaultFeedback, type FeedbackSettings, GATE_DEFAULTS, type GateFeedback, type GateSettings, type PatchRequest } from '@keel/reliability/internal';
import type { ModelResponse } from '@keel/provider';
import { continuationOf, patchSettingsOf, toolPatchSettingsOf } from './patch-and-continue';
import type { RunContext } from '../state/run-context';
import { schemaDowngradeRule } from '../output/schema-downgrade-rule';

/** The output's feedback settings: its hook, echo cap and hint; `false` when feedback is off. */
function outputFeedback(state: RunContext): FeedbackSettings<ModelResponse> | false {
  const options = state.config.output?.options;
  if (options?.feedback === false) return false;
  return { template: options?.feedbackForLLM, maxTokens: options?.maxFeedbackTokens ?? GATE_DEFAULTS.maxFeedbackTokens, retryHint: options?.retryHint };
}

/** Step settings by configuration and step: they depend on nothing else, so each is made once (read where a step begins). */
export const stepSettingsMade = new WeakMap<RunContext['config'], GateSettings<ModelResponse>[]>();

/** The policy of a step's call: the step rules, the run's caps, the output's feedback, fallback on failures of the answer. */
export function stepSettings(state: RunContext): GateSettings<ModelResponse> {
  // A nested run's budgets include its parents': its settings are its own.
  if (state.preCheck !== state.config.preCheck) return makeStepSettings(state);
  let made = stepSettingsMade.get(state.config);
  if (!made) stepSettingsMade.set(state.config, (made = []));
  return (made[state.step] ??= Object.freeze(makeStepSettings(state)));
}

function makeStepSettings(state: RunContext): GateSettings<ModelResponse> {
  const { config } = state;
  return {
    preCheck: state.preCheck,
    rules: [schemaDowngradeRule, ...config.stepRules],
    maxAttempts: config.maxAttempts,
    maxRetryAfterMs: config.maxRetryAfterMs,
    providerCount: config.targets.length,
    feedback: outputFeedback(state),
    maxRawOutputChars: config.maxRawOutputChars,
    step: state.step,
    callPurpose: 'step',
    ...(config.outputFallback ? { fallbackOn: ANSWER_FAILURES } : {}),
    ...withPatchAndContinuation(state),
  };
}

/** Patch re-asks and continuation of cut answers, for a step's call with an output schema. */
function withPatchAndContinuation(state: RunContext): Pick<GateSettings<ModelResponse>, 'patch' | 'continuation'> {
  const options = state.config.output?.options;
  if (!options) return {};
  const patch = patchSettingsOf(options);
  const continuation = continuationOf(options);
  return { ...(patch ? { patch } : {}), ...(continuation ? { continuation } : {}) };
}

/** Failures of the model's answer (not of the call) that output fallbacks may stand in for. */
const ANSWER_FAILURES = Object.freeze(['schema-fail', 'parse-fail', 'rule-rejected', 'truncated', 'refusal'] as const);

/** How a tool call's arguments are described in feedback. */
function toolFeedbackText(name: string): Pick<FeedbackSettings<ModelResponse>, 'subject' | 'instruction'> {
  return {
    subject: `The arguments of your call to '${name}'`,
    instruction: `Call '${name}' again with corrected arguments. Fix every problem listed; keep everything else as it was.`,
  };
}

/** The policy of one tool call's re-asks: the re-ask rules given, the run's caps, tool-argument feedback. */
export function reAskSettings(state: RunContext, toolCall: { readonly id: string; readonly name: string }, rules: GateSettings<ModelResponse>['rules']): GateSettings<ModelResponse> {
  const { config } = state;
  const output = outputFeedback(state);
  return {
    preCheck: state.preCheck,
    rules: [schemaDowngradeRule, ...rules],
    maxAttempts: config.maxAttempts,
    maxRetryAfterMs: config.maxRetryAfterMs,
    providerCount: config.targets.length,
    // Tool arguments always get feedback: a re-ask without it could only repeat the call.
    feedback: { maxTokens: output === false ? GATE_DEFAULTS.maxFeedbackTokens : output.maxTokens, ...toolFeedbackText(toolCall.name) },
    maxRawOutputChars: config.maxRawOutputChars,
    step: state.step,
    callPurpose: 'tool-re-ask',
    toolCall,
    ...withToolPatch(state),
    ...withToolContinuation(state),
  };
}

/**
 * The policy of a compaction's summary call: the run's PreCheck (its budgets bound the summary as
 * any call), the library's rules for failed calls (a transient error is retried, the rest stop),
 * no feedback (the summary is not judged), on its one target.
 */
export function summarySettings(state: RunContext): GateSettings<ModelResponse> {
  const { config } = state;
  return {
    preCheck: state.preCheck,
    rules: config.reAskRules.after,
    maxAttempts: config.maxAttempts,
    maxRetryAfterMs: config.maxRetryAfterMs,
    providerCount: 1,
    feedback: false,
    maxRawOutputChars: config.maxRawOutputChars,
    step: state.step,
    callPurpose: 'summary',
  };
}

/** Continuation of tool arguments cut at the token limit: the output's `continuation` option, else the defaults. */
function withToolContinuation(state: RunContext): Pick<GateSettings<ModelResponse>, 'continuation'> {
  const continuation = continuationOf(state.config.output?.options);
  return continuation ? { continuation } : {};
}

/** Patch re-asks of large tool arguments: the output's `patch` option, else the defaults. */
function withToolPatch(state: RunContext): Pick<GateSettings<ModelResponse>, 'patch'> {
  const patch = toolPatchSettingsOf(state.config.output?.options);
  return patch ? { patch } : {};
}

/**
 * The feedback of a tool call's first re-ask, from the failure of the arguments the step produced;
 * with `patch`, it asks for only the corrected values at its paths.
 */
export function firstReAskFeedback(settings: GateSettings<ModelResponse>, failure: ValidationFailure, patch?: PatchRequest): GateFeedback {
  return defaultFeedback(failure, settings.feedback === false ? { maxTokens: GATE_DEFAULTS.maxFeedbackTokens } : settings.feedback, patch, settings.toolCall?.name);
}
