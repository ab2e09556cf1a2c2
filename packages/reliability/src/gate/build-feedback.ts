import { reduceError } from '../errors/keel-error';
import { raceSignal, rethrowIfAborted } from '../race-signal';
import type { ValidationFailure } from '../errors/validation-failure';
import { formatFeedback } from '../feedback/format-feedback';
import { truncateEcho } from '../feedback/truncate-echo';
import type { GateEvent } from './gate-event';
import type { GateFeedback, GateOptions } from './gate-options';
import type { ReliabilityRule } from './rule';
import type { ReliabilityScope } from './scope';
import { resolveValue } from './scope-value';

/** What {@link buildFeedback} needs. */
export interface FeedbackSources<TResponse, TValue> {
  readonly failure: ValidationFailure;
  /** The rule that decided the retry; its `feedbackForLLM` wins when it gives text. */
  readonly rule: ReliabilityRule<TResponse>;
  readonly scope: ReliabilityScope<TResponse>;
  readonly options: Pick<GateOptions<TResponse, TValue>, 'maxFeedbackTokens' | 'retryHint' | 'feedbackText' | 'signal'>;
  readonly emit: (event: GateEvent) => void;
}

/**
 * The feedback the next attempt carries: the rejected output capped to the echo budget, and the
 * text — the rule's `feedbackForLLM`, else the gate's `feedbackText`, else the default prose. A
 * callback that throws is reported (`reliability.feedback_error`) and the default text is sent.
 * Every callback is raced against the signal: one that never settles cannot hold the run.
 */
export async function buildFeedback<TResponse, TValue>({ failure, rule, scope, options, emit }: FeedbackSources<TResponse, TValue>): Promise<GateFeedback> {
  const previousOutput = truncateEcho(failure.rawOutput, options.maxFeedbackTokens ?? 4000);
  const defaultText = () =>
    formatFeedback({
      errorType: failure.stage === 'json-parse' ? 'parse' : 'schema',
      issues: failure.issues,
      parseErrorMessage: failure.message,
      ...(options.retryHint === undefined ? {} : { retryHint: options.retryHint }),
    });
  if (rule.feedbackForLLM !== undefined) {
    try {
      const text = await raceSignal(resolveValue(rule.feedbackForLLM, scope), options.signal);
      if (typeof text === 'string' && text.length > 0) return { previousOutput, text };
    } catch (error) {
      rethrowIfAborted(options.signal, error);
      emit({ type: 'reliability.feedback_error', source: 'rule', message: reduceError(error).message });
      return { previousOutput, text: defaultText() };
    }
  }
  if (options.feedbackText) {
    try {
      const text = await raceSignal(options.feedbackText(failure, scope, previousOutput), options.signal);
      if (typeof text === 'string') return { previousOutput, text };
      emit({ type: 'reliability.feedback_error', source: 'template', message: `the feedback template returned ${text === null ? 'null' : typeof text}, not a string` });
    } catch (error) {
      rethrowIfAborted(options.signal, error);
      emit({ type: 'reliability.feedback_error', source: 'template', message: reduceError(error).message });
    }
  }
  return { previousOutput, text: defaultText() };
}
