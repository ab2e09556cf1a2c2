/**
 * An agent's limits when `Agent.create()` is given none (the gate's own, `maxAttempts`,
 * `maxRetryAfterMs` and `maxRawOutputChars`, are reliability's `GATE_DEFAULTS`).
 */
export const AGENT_DEFAULTS = Object.freeze({
  /** Model calls that may end a step (a ReAct turn) before the run stops. */
  maxSteps: 10,
  /** How deep agents may call agents as tools. */
  maxDepth: 4,
  /** Re-asks for a tool call's invalid arguments. */
  toolRetries: 2,
  /** Bytes of a tool's serialized result sent to the model. */
  maxToolResultBytes: 64 * 1024,
  /**
   * Milliseconds a resume waits, when another holds the claim and the run is still suspended,
   * before it takes the claim over: a live resume writes its first checkpoint well within it, a
   * killed one never does. A durable run's start holds its run id as long, for the same reason:
   * a second start of the id at once is refused.
   */
  resumeTakeoverMs: 2_000,
});
