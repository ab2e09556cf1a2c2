import type { ToolSearchOptions } from '../tools/search/tool-search';
import type { FeedbackTemplate, PreCheckRule, PricingTable, ReliabilityRule, ValidationFailure } from '@keel/reliability';
import type { RetryOnKind } from '@keel/reliability/internal';
import type { ModelProvider, ModelResponse } from '@keel/provider';

/** A provider and the model to use on it. */
export interface ModelTarget {
  readonly provider: ModelProvider;
  readonly model: string;
}

/** What `Agent.create()` takes. */
export interface AgentOptions extends ModelTarget {
  /** Most model turns in one run. Default 10. */
  readonly maxSteps?: number;
  /**
   * How deep runs may nest through agents called as tools (`agent.asTool()`): a run started at a
   * deeper level fails with `MaxDepthExceededError` before any model call (its tool call reports
   * the error). The smallest along a chain applies. Default 4.
   */
  readonly maxDepth?: number;
  /**
   * Failover providers, in order, after the primary: a rule deciding `retry-other` (such as
   * `failoverRule()`) moves to the next one. Not to be confused with `.outputFallback()`.
   */
  readonly failover?: readonly ModelTarget[];
  readonly maxTokens?: number;
  readonly temperature?: number;
  readonly stop?: readonly string[];
  /** Prices by model id; with it, usage and events carry cost. */
  readonly pricing?: PricingTable;
  /** Re-asks allowed per tool call when its arguments fail validation (a retry budget). Default 2. */
  readonly toolRetries?: number;
  /** Tool search for many tools: deferred tools are found by the model with `tool_search` instead of sent whole (see docs/tool-search.md). */
  readonly toolSearch?: ToolSearchOptions;
  /**
   * Hard cap on model calls per step (attempts: the first call, feedback retries, transient
   * retries, failovers), whatever the rules say. Default 10.
   */
  readonly maxAttempts?: number;
  /** Longest provider Retry-After honoured, in ms. Default 30 000. */
  readonly maxRetryAfterMs?: number;
  /** Cap on a tool result sent to the model, in bytes of UTF-8; longer results are cut with a marker. Default 65 536. */
  readonly maxToolResultBytes?: number;
  /** Milliseconds a tool call may run before it ends with an error result coded `tool-timeout` (the run goes on). A tool's own `timeoutMs` wins. No limit by default. */
  readonly toolTimeoutMs?: number;
  /** Cap on the model output kept in attempt records and `validation.failed` events, in characters (cut with a marker). Default 16 384. */
  readonly maxRawOutputChars?: number;
  /**
   * The key suspended run states are signed with (HMAC-SHA-256), at least 32 bytes: a secret
   * string, or bytes. Give it to resume states in another process or on another worker (every
   * process running the agent needs the same key). Without it, the agent signs with 32 random
   * bytes of its own: its states resume only with this agent object. See docs/approvals.md.
   */
  readonly stateKey?: string | Uint8Array;
  /**
   * A stable id naming this agent in the states it suspends with: a state resumes only on an agent
   * with the same id. Default: derived from the tools' names and input schemas and the output
   * schema. An output schema without a JSON Schema (`{ parse }`, Zod 3) is told apart by identity,
   * which holds in one process only: give such an agent an `id` to resume its states in another
   * process (`build()` asks for one when a `stateKey` is set). 1-200 characters.
   */
  readonly id?: string;
  /**
   * How long a suspended state may be resumed, in milliseconds: the expiry is signed into the
   * state, and a spent state is remembered until then. Default 7 days.
   */
  readonly stateTtlMs?: number;
  /**
   * Strict tools: tool arguments constrained by the provider's decoder to the tool's input schema
   * (lowered to what it accepts; Keel still validates the full schema). `auto` (default): strict
   * where the provider declares it for the model and the schema can be lowered; `true`: the same,
   * and `build()` fails when the model does not support it; `false`: never. `tool({ strict })`
   * overrides per tool.
   */
  readonly strictTools?: 'auto' | boolean;
}

/** Settings of `.outputSchema()`. */
export interface OutputOptions {
  /** Feedback retries after the first answer fails validation. Default 2; `0` opts out of retries. */
  readonly maxRetries?: number;
  /** Send feedback on retries (`false`: retry blind). Default true. */
  readonly feedback?: boolean;
  /** Static text appended to every feedback. */
  readonly retryHint?: string;
  /** Failures retried within `maxRetries`. Default `['schema', 'parse']`. */
  readonly retryOn?: readonly RetryOnKind[];
  /**
   * `false` (partial mode): a reply that parses is returned with its schema issues recorded and no
   * retry; a reply that does not parse is still retried per `retryOn`. Default true.
   */
  readonly strict?: boolean;
  /** Cap on the echoed previous output, in tokens. Default 4000. */
  readonly maxFeedbackTokens?: number;
  /**
   * The feedback text of retries: a fixed string or a {@link FeedbackTemplate} (the same hook type
   * rules and `runGate` take). A throw falls back to the default text (and emits
   * `reliability.feedback-error`).
   */
  readonly feedbackForLLM?: string | FeedbackTemplate<ModelResponse>;
  /**
   * Local JSON extraction and lossless repair before parsing (fences, prose, quotes, bare keys,
   * comments, commas...; see docs/strict-output.md). Lossy fixes are never applied. Default true.
   */
  readonly repair?: boolean;
  /**
   * Schema-guided coercion of unique, lossless mismatches (`"50"` → 50, `"true"` → true, a single
   * value → a one-item array, enum casing, `null` for an optional property → absent), each recorded
   * in `result.coercions`. Default true.
   */
  readonly coerce?: boolean;
  /**
   * Patch re-asks: when a rejected answer is large and its issues sit at a few paths, the re-ask
   * asks for only the corrected values, as one JSON object keyed by the printed paths
   * (`{"items[137].price": 21.25}`); Keel applies it to the rejected value and validates the whole
   * (recorded as `via: 'patch'`). A patch may set only the paths the feedback named; a complete
   * value is still taken as one. `minTokens`: smallest rejected answer, in tokens (about 4
   * characters each), default 1000; `maxPaths`: most paths, default 8. `false` turns it off.
   * Only with the default feedback text (a `feedbackForLLM` asks for what it says).
   */
  readonly patch?: false | { readonly minTokens?: number; readonly maxPaths?: number };
  /**
   * Continuation of an answer cut at the token limit (finish reason `length`): the model continues
   * its cut output (an assistant prefill on Anthropic; an assistant message and an instruction on
   * OpenAI-compatible servers), the parts are joined and validated as one reply (recorded as
   * `via: 'continuation'`). `maxContinuations`: most continuations in a row, default 2 (each is
   * an attempt, under `maxAttempts` and the budgets); `maxTokens`: the continuation's token limit
   * (default the agent's). `false`: a cut answer fails as `truncated`.
   */
  readonly continuation?: false | { readonly maxContinuations?: number; readonly maxTokens?: number };
  /**
   * How the final answer is asked for. Default `auto`: `native` where the provider declares
   * native output for the model (`capabilities(model).nativeOutput`), else `prompt`.
   * - `native`: the provider's constrained decoding (Anthropic `output_config.format`, OpenAI a
   *   strict `json_schema` response format) with the schema lowered to what its decoder accepts;
   *   tool calls still work. Keel validates the full schema either way.
   * - `tool`: the answer is a forced call of an answer tool (`final_answer`) whose input schema is
   *   the output schema (an object schema), for models without native output.
   * - `prompt`: nothing is sent; the schema is yours to describe in the prompt.
   *
   * A provider's 400 refusing the schema moves the run at once to the next mode (`native` →
   * `tool` → `prompt`), reported as `output.mode-downgraded`; later runs of the agent start there.
   */
  readonly mode?: 'auto' | 'native' | 'tool' | 'prompt';
}

/** Settings of `.outputFallback()`: used, in order, when the model gives no valid answer. */
export interface OutputFallbackOptions<T> {
  /** Computes a value from the failure; its result is validated too. */
  readonly fallback?: (failure: ValidationFailure, rawOutput: string) => T | Promise<T>;
  /** A fixed value, validated at `build()`. */
  readonly canned?: T;
}

/** Settings of `.reliability()`: the gate's rules around every model call. */
export interface ReliabilityOptions {
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
