/**
 * A tool call a durable run recorded as started (its intent) but not as finished (its outcome),
 * when the process running it stopped: whether it ran is unknown. A `once` tool's call is never
 * run again blindly: the run suspends with it, and `agent.resume(state, { outcomes, retry })`
 * settles it (what happened, or run it again).
 */
export interface UnknownOutcome {
  /** The tool call's id, as the model gave it: what `outcomes` and `retry` name. */
  readonly toolCallId: string;
  readonly toolName: string;
  /** The arguments it was started with. */
  readonly arguments: unknown;
  /** The key it was started with: ask the system it writes to whether this key was applied. */
  readonly idempotencyKey: string;
}
