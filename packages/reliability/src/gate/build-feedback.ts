import { reduceError } from '../errors/keel-error';
import type { ValidationFailure } from '../errors/validation-failure';
import { type FeedbackTemplate, feedbackInput, formatFeedback } from '../feedback/format-feedback';
import { patchInstruction } from '../feedback/patch-instruction';
import type { PatchRequest } from '../patch/patch-request';
import { truncateEcho } from '../feedback/truncate-echo';
import { raceSignal, rethrowIfAborted } from '../race-signal';
import type { GateEvent } from './gate-event';
import type { GateFeedback } from './gate-options';
import type { FeedbackSettings } from './gate-settings';
import type { ReliabilityRule } from './rule';
import type { ReliabilityScope } from './scope';

/** What {@link buildFeedback} needs. */
export interface FeedbackSources<TResponse> {
  readonly failure: ValidationFailure;
  /** The rule that decided the retry; its `feedbackForLLM` wins when it gives text. */
  readonly rule: ReliabilityRule<TResponse>;
  readonly scope: ReliabilityScope<TResponse>;
  readonly options: FeedbackSettings<TResponse> & { readonly signal?: AbortSignal | undefined };
  readonly emit: (event: GateEvent) => void;
  /** Ask for only the corrected values at these paths (the default prose only: a hook's text asks for what it says). */
  readonly patch?: PatchRequest | undefined;
}

/**
 * The feedback the next attempt carries: the rejected output capped to the echo budget, and the
 * text — the rule's `feedbackForLLM`, else the gate's `feedbackForLLM`, else the default prose.
 * Both hooks have one type ({@link FeedbackTemplate}); an empty string falls through to the next.
 * A hook that throws or returns a non-string is reported (`reliability.feedback-error`) and the
 * default text is sent. Every hook is raced against the signal: one that never settles cannot
 * hold the run.
 */
export async function buildFeedback<TResponse>({ failure, rule, scope, options, emit, patch }: FeedbackSources<TResponse>): Promise<GateFeedback> {
  const previousOutput = truncateEcho(failure.rawOutput, options.maxTokens);
  const input = feedbackInput(failure, { attempt: scope.attempt, previousOutput, retryHint: options.retryHint, scope });
  const hooks: readonly { readonly hook: string | FeedbackTemplate<TResponse> | undefined; readonly source: 'rule' | 'template' }[] = [
    { hook: rule.feedbackForLLM, source: 'rule' },
    { hook: options.template, source: 'template' },
  ];
  for (const { hook, source } of hooks) {
    if (hook === undefined) continue;
    try {
      const text: unknown = typeof hook === 'string' ? hook : await raceSignal(Promise.resolve(hook(input)), options.signal);
      if (typeof text === 'string' && text.length > 0) return { previousOutput, text };
      if (typeof text === 'string') continue;
      emit({ type: 'reliability.feedback-error', source, message: `the feedback hook returned ${text === null ? 'null' : typeof text}, not a string` });
    } catch (error) {
      rethrowIfAborted(options.signal, error);
      emit({ type: 'reliability.feedback-error', source, message: reduceError(error).message });
    }
    break;
  }
  return defaultFeedback(failure, options, patch, scope.toolCall?.name);
}

/**
 * The default feedback of a failure, with no hook: its output echoed within the echo budget and
 * the default prose (`formatFeedback`), or, with `patch`, a request for only the corrected values
 * at its paths (`toolName`: the tool whose arguments they are).
 */
export function defaultFeedback(
  failure: ValidationFailure,
  options: Pick<FeedbackSettings<unknown>, 'maxTokens' | 'retryHint' | 'subject' | 'instruction'>,
  patch?: PatchRequest,
  toolName?: string,
): GateFeedback {
  const previousOutput = truncateEcho(failure.rawOutput, options.maxTokens);
  const instruction = patch ? patchInstruction(patch, toolName) : options.instruction;
  const text = formatFeedback({
    stage: failure.stage,
    issues: failure.issues,
    ...(failure.stage === 'json-parse' ? { parseErrorMessage: failure.message } : {}),
    ...(options.retryHint === undefined ? {} : { retryHint: options.retryHint }),
    ...(options.subject === undefined ? {} : { subject: options.subject }),
    ...(instruction === undefined ? {} : { instruction }),
  });
  return patch ? { previousOutput, text, patch } : { previousOutput, text };
}
