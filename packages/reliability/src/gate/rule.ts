import type { FeedbackTemplate } from '../feedback/format-feedback';
import type { ReliabilityScope } from './scope';

/** What a matching rule decides. */
export type RuleDecision = 'continue' | 'accept' | 'retry' | 'retry-other' | 'fallback' | 'fail-fast';

/** Decisions a PreCheck rule may take. */
type PreCheckDecision = Extract<RuleDecision, 'continue' | 'fail-fast'>;

/** A value or a function of the scope that computes it. */
export type ScopeValue<T, TResponse, TValue = unknown> = T | ScopeFunction<T, TResponse, TValue>;

/**
 * A function of the scope, declared as a method so that a rule written against a typed value
 * (`ReliabilityRule<ModelResponse, Refund>`) fits where rules of any value are taken.
 */
type ScopeFunction<T, TResponse, TValue> = { bivariant(scope: ReliabilityScope<TResponse, TValue>): T | Promise<T> }['bivariant'];

/**
 * An interceptor: when `when` matches, `then` is the decision. Rules are evaluated in order and the
 * first match wins. A rule that decides `retry` on a valid value rejects it: the attempt becomes a
 * `rule-rejected` failure whose feedback is the rule's `feedbackForLLM`, and the rules after it
 * decide what follows (budgets and stuck detection apply as to any validation failure).
 */
export interface ReliabilityRule<TResponse = unknown, TValue = unknown> {
  /** Whether the rule applies. A throw fails the run fast with kind `rule-error`. */
  when(scope: ReliabilityScope<TResponse, TValue>): boolean | Promise<boolean>;
  readonly then: RuleDecision;
  /** A stable machine-readable name, reported in events and errors (e.g. `schema-stuck-loop`). */
  readonly kind: string;
  /** Human-readable description. */
  readonly label?: string;
  /**
   * For `retry` after a validation failure: the feedback text to send instead of the default — a
   * fixed string or a {@link FeedbackTemplate} (which sees the issues, the capped previous output
   * and the scope). An empty string falls through to the gate's own `feedbackForLLM`, then the default.
   */
  readonly feedbackForLLM?: string | FeedbackTemplate<TResponse>;
  /**
   * For `retry`: milliseconds to wait before the next attempt. A Retry-After from the provider wins (capped).
   * For a PreCheck rule that decides `continue`: milliseconds to wait before this attempt (capped
   * like a Retry-After, reported as `reliability.wait`); the PreCheck rules after it still run.
   */
  readonly backoff?: ScopeValue<number, TResponse, TValue>;
}

/** A rule that may run before an attempt: only `continue` or `fail-fast`. */
export interface PreCheckRule<TResponse = unknown> extends ReliabilityRule<TResponse> {
  readonly then: PreCheckDecision;
}
