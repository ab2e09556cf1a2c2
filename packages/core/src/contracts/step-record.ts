import type { FinishReason } from '@keel/provider';

/** One step of the ReAct loop: a model turn and the tools it called. */
export interface StepRecord {
  readonly step: number;
  readonly finishReason: FinishReason;
  /** The turn's text. */
  readonly text: string;
  readonly toolCalls: number;
  /** Model calls made in the step, retries and tool re-asks included. */
  readonly modelCalls: number;
  readonly durationMs: number;
}
