import type { AgentEventName, AgentListener, RunInput, RunOptions, RunResult } from '@keel/core';

/** One case of a dataset: the run's input, and what it should produce when the scorers need it. */
export interface EvalItem<TExpected = unknown> {
  /** What `agent.run()` is given: a message, `{ message }`, or messages. */
  readonly input: RunInput;
  /** The expected value, for scorers that compare (exact match, a judge's reference). */
  readonly expected?: TExpected;
  /** A stable name for the item in reports and comparisons. Default: its 1-based position. */
  readonly id?: string;
}

/** What a scorer returns: a score from 0 to 1 and whether it passes, with an optional reason. */
export interface ScoreResult {
  readonly score: number;
  readonly pass: boolean;
  readonly reason?: string;
}

/** What a scorer may return: a result (passing at 0.5 when `pass` is left out), a number from 0 to 1, or a boolean. */
export type ScoreReturn = number | boolean | { readonly score: number; readonly pass?: boolean; readonly reason?: string };

/** What a scorer reads of one completed run. */
export interface ScoreInput<TOutput = unknown, TExpected = unknown> {
  readonly item: EvalItem<TExpected>;
  /** The run's value (validated with an output schema, else its text). */
  readonly value: TOutput;
  /** The final answer's text. */
  readonly text: string;
  readonly result: RunResult<TOutput>;
}

/**
 * Scores completed runs. `score` may return a {@link ScoreResult} (`pass` may be left out), a
 * number from 0 to 1 (passing at 0.5 or more) or a boolean. A scorer that throws scores 0, failing, with the error as reason.
 * Runs that failed are not scored: every scorer fails them.
 */
export interface Scorer<TOutput = unknown, TExpected = unknown> {
  /** The name the report files its scores under. Unique within an eval. */
  readonly name: string;
  score(input: ScoreInput<TOutput, TExpected>): ScoreReturn | Promise<ScoreReturn>;
}

/** The part of an agent an eval uses: an `Agent` fits. */
export interface EvalAgent<TOutput = unknown> {
  run(input: RunInput, options?: RunOptions): Promise<RunResult<TOutput>>;
  on<E extends AgentEventName>(event: E, listener: AgentListener<E>): () => void;
}

/** Options of `evaluate()`, and what an eval file exports. */
export interface EvalDefinition<TOutput = unknown, TExpected = unknown> {
  /** The eval's name, in reports. Default `eval`. */
  readonly name?: string;
  readonly agent: EvalAgent<TOutput>;
  readonly dataset: readonly EvalItem<TExpected>[];
  /**
   * How runs are scored. Default: `exactMatch()` when any item has an `expected` value, else none
   * (an item then passes when its run completes).
   */
  readonly scorers?: readonly Scorer<TOutput, TExpected>[];
  /** Runs at once. Default 4. */
  readonly concurrency?: number;
}
