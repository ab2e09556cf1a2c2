import type {
  FeedbackTemplate,
  PreCheckRule,
  PricingTable,
  ReliabilityRule,
  RetryOnKind,
  ValidationFailure,
} from '@keel/reliability';
import type { ModelProvider, ModelResponse } from '../model/model-provider-v1';

/** A provider and the model to use on it. */
export interface ModelTarget {
  readonly provider: ModelProvider;
  readonly model: string;
}

/** What `Agent.create()` takes. */
export interface AgentOptions extends ModelTarget {
  /** Most model turns in one run. Default 10. */
  readonly maxSteps?: number;
  /** Providers `retry-other` moves through, in order, after the primary. */
  readonly fallbacks?: readonly ModelTarget[];
  readonly maxTokens?: number;
  readonly temperature?: number;
  readonly stop?: readonly string[];
  /** Prices by model id; with it, usage and events carry cost. */
  readonly pricing?: PricingTable;
  /** Re-asks allowed per tool call when its arguments fail validation. Default 2. */
  readonly toolRetries?: number;
  /** Hard cap on model calls per step, whatever the rules say. Default 10. */
  readonly maxAttemptsPerStep?: number;
  /** Longest provider Retry-After honoured, in ms. Default 30 000. */
  readonly maxRetryAfterMs?: number;
  /** Cap on a tool result sent to the model, in bytes of UTF-8; longer results are cut with a marker. Default 65 536. */
  readonly maxToolResultBytes?: number;
  /** Milliseconds a tool call may run before it ends with an error result coded `TOOL_TIMEOUT` (the run goes on). A tool's own `timeoutMs` wins. No limit by default. */
  readonly toolTimeoutMs?: number;
  /** Cap on the model output kept in attempt records and `validation.failed` events, in characters (cut with a marker). Default 16 384. */
  readonly maxRawOutputChars?: number;
}

/** Settings of `.outputSchema()`. */
export interface OutputOptions {
  /** Model calls allowed for a valid answer: 1 + feedback retries. Default 3; `1` opts out of retries. */
  readonly maxAttempts?: number;
  /** Send feedback on retries (`false`: retry blind). Default true. */
  readonly feedback?: boolean;
  /** Static text appended to every feedback. */
  readonly retryHint?: string;
  /** Failures retried within `maxAttempts`. Default `['schema', 'parse']`. */
  readonly retryOn?: readonly RetryOnKind[];
  /** `false`: return the parsed but unvalidated value, issues recorded, no retry. Default true. */
  readonly strict?: boolean;
  /** Cap on the echoed previous output, in tokens. Default 4000. */
  readonly maxFeedbackTokens?: number;
  /** Writes the feedback text; a throw falls back to the default text (and emits an event). */
  readonly feedbackTemplate?: FeedbackTemplate;
  /** Local JSON extraction/repair before parsing (fences, prose, trailing commas). Default true. */
  readonly repair?: boolean;
  /** Ask providers with a native JSON mode to use it. Default false. */
  readonly nativeStructuredOutput?: boolean;
}

/** Settings of `.outputFallback()`: used, in order, when the model gives no valid answer. */
export interface OutputFallbackOptions<T> {
  /** Computes a value from the failure; its result is validated too. */
  readonly fallback?: (failure: ValidationFailure, rawOutput: string) => T | Promise<T>;
  /** A fixed value, validated at `build()`. */
  readonly canned?: T;
}

/** Settings of `.rules()`. */
export interface RulesOptions {
  /** Run before every attempt; `continue` or `fail-fast` only. */
  readonly preCheck?: readonly PreCheckRule<ModelResponse>[];
  /** Run after every attempt; first match wins. */
  readonly postDecide?: readonly ReliabilityRule<ModelResponse>[];
  /**
   * Append the default rules after yours: strict-output rules when an output schema is set, then
   * transient-error retries. Default true.
   */
  readonly defaults?: boolean;
}
