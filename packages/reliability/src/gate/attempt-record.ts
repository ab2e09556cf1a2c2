import type { ErrorKind } from '../error-kind';
import type { TokenUsage } from '../usage';
import type { ValidationIssue } from '../validation/issue';

/** One model call as the gate saw it. */
export interface AttemptRecord {
  /** The agent step the call belongs to (0 when the gate runs on its own). */
  readonly step: number;
  /** 1-based attempt number within its gate run. */
  readonly attempt: number;
  /** Why the call was made: the step's own call, a re-ask for a tool call's arguments, or a summary of older turns (context compaction). */
  readonly purpose: 'step' | 'tool-re-ask' | 'summary';
  /** The tool call a `tool-re-ask` asked about. */
  readonly toolCallId?: string;
  /** Index of the provider used (0 = primary). */
  readonly providerIndex: number;
  /** `valid` the answer passed its check, `invalid` it failed validation, `error` the call or its answer failed. */
  readonly status: 'valid' | 'invalid' | 'error';
  /** The failure's kind; `ok` when accepted. */
  readonly errorKind: ErrorKind;
  /** Validation issues of this attempt's output (empty when none). */
  readonly issues: readonly ValidationIssue[];
  /** The output that was validated, when there was one. */
  readonly rawOutput?: string;
  readonly elapsedMs: number;
  /** Tokens (and cost) of this call; zero for a call that failed before answering. */
  readonly usage: TokenUsage;
  /** Whether this call's request carried feedback about the previous attempt. */
  readonly feedbackSent: boolean;
  /**
   * How this attempt's output was obtained when it was not one reply as it stands: `patch` (the
   * reply was a patch applied to the rejected value, validated whole), `continuation` (the reply
   * continued an output cut at the token limit and was joined to it).
   */
  readonly via?: 'patch' | 'continuation';
}
