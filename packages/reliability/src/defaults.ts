/**
 * The gate's limits when none are given, one copy for `runGate` and for an agent's attempt loop
 * (`Agent.create()` options of the same names).
 */
export const GATE_DEFAULTS = Object.freeze({
  /** Hard cap on the attempts of one call (a step's answer, a tool's re-asks). */
  maxAttempts: 10,
  /** The longest `retry-after` a provider may ask for before the gate stops instead of waiting. */
  maxRetryAfterMs: 30_000,
  /** Echo cap for the rejected output in feedback, in tokens. */
  maxFeedbackTokens: 4000,
  /** Characters of a response's raw output kept in an attempt's record. */
  maxRawOutputChars: 16_384,
});

/** `strictOutputRules()`'s retries of a failed answer when none are given, and an output schema's `maxRetries`. */
export const STRICT_OUTPUT_DEFAULTS = Object.freeze({ maxRetries: 2 });

/** `exponentialBackoff()`'s settings when none are given. */
export const BACKOFF_DEFAULTS = Object.freeze({ baseMs: 500, factor: 2, maxMs: 30_000, jitter: 0.5 });
