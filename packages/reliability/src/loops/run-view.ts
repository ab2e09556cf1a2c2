import type { TokenUsage } from '../usage';

/** One tool call of a finished step, as run-level rules see it. */
export interface ToolCallView {
  readonly id: string;
  readonly name: string;
  /**
   * `loopArgumentsHash` of the arguments the tool ran with: equal arguments, whatever their key
   * order, whitespace in strings or `null` fields, hash equal.
   */
  readonly argumentsHash: string;
  /** `loopResultHash` of what the tool returned (or of its error, when it failed): date-times, UUIDs and request ids masked. */
  readonly resultHash: string;
  /** Whether the call failed (the tool threw, timed out, or its arguments were refused). */
  readonly failed: boolean;
  /**
   * Whether the result reports work still under way (`"status": "in_progress"`, `still running`:
   * see `loopResultPending`): a check another call or a wait separates from the next is polling,
   * never a loop. Absent reads as false.
   */
  readonly pending?: boolean;
  /** The start of the result as the model read it (at most 200 characters), for feedback that names it. */
  readonly resultPreview: string;
}

/** One finished step of the run. */
export interface RunStepView {
  readonly step: number;
  readonly toolCalls: readonly ToolCallView[];
  /** {@link canonicalHash} of the step's reply text, when the turn had text. */
  readonly replyHash?: string;
}

/** A call the answer being judged asks for (it has not run). */
export interface ProposedCallView {
  readonly name: string;
  /** `loopArgumentsHash` of the arguments as the tool would run with them (after its validation and coercion, when they pass). */
  readonly argumentsHash: string;
}

/** The turn being judged: its tool calls and the hash of its text, when it has text. */
export interface TurnView {
  readonly toolCalls: readonly ProposedCallView[];
  readonly replyHash?: string;
}

/**
 * The run so far, as a rule's scope carries it (`scope.run`): every finished step with its tool
 * calls, the turn being judged (PostDecide on a step's call), and the run's usage so far.
 */
export interface RuleRunView {
  readonly steps: readonly RunStepView[];
  readonly turn?: TurnView;
  readonly usage: TokenUsage;
  /** Times the model was told about a loop (an action-loop nudge) earlier in this run, in any step. */
  readonly loopNudges?: number;
}
