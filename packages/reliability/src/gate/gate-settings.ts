import type { ErrorKind } from '../error-kind';
import type { FeedbackTemplate } from '../feedback/format-feedback';
import type { PatchSettings } from '../patch/patch-request';
import type { RuleRunView } from '../loops/run-view';
import type { AttemptRecord } from './attempt-record';
import type { PreCheckRule, ReliabilityRule } from './rule';

/** How feedback is written for a validation retry. */
export interface FeedbackSettings<TResponse> {
  /** The caller's hook (after a rule's own), else the default prose. */
  readonly template?: string | FeedbackTemplate<TResponse> | undefined;
  /** Echo cap for the rejected output, in tokens. */
  readonly maxTokens: number;
  /** Static text appended to the default feedback. */
  readonly retryHint?: string | undefined;
  /** What failed, starting the default header (`Your previous reply`). */
  readonly subject?: string | undefined;
  /** The default closing instruction of a schema failure. */
  readonly instruction?: string | undefined;
}

/** The resolved policy of one gate run: rules, caps and feedback. Built once, shared by attempts. */
export interface GateSettings<TResponse> {
  readonly preCheck: readonly PreCheckRule<TResponse>[];
  /** PostDecide rules, defaults already appended. */
  readonly rules: readonly ReliabilityRule<TResponse>[];
  readonly maxAttempts: number;
  readonly maxRetryAfterMs: number;
  readonly providerCount: number;
  /** `false`: validation retries carry no feedback. */
  readonly feedback: FeedbackSettings<TResponse> | false;
  readonly maxRawOutputChars: number;
  /** Reported in attempt records. */
  readonly step: number;
  readonly callPurpose: AttemptRecord['purpose'];
  /** The tool call a tool-argument re-ask is for. */
  readonly toolCall?: { readonly id: string; readonly name: string } | undefined;
  /**
   * Failures of the answer itself that a fallback value may stand in for: a stop on one of these
   * (a budget used up, a rule's stop; never a rule or validator that crashed) is decided as
   * `fallback` instead, carrying the stop.
   */
  readonly fallbackOn?: readonly ErrorKind[] | undefined;
  /**
   * Patch re-asks: a schema failure of a large value with issues at a few paths asks for only the
   * corrected values (see `patchRequestOf`). Absent: every re-ask asks for the whole value.
   */
  readonly patch?: PatchSettings | undefined;
  /**
   * Continuation of output cut at the token limit (`truncated` with the cut text): at most
   * `maxContinuations` in a row, each an attempt. Absent: a cut output is a `truncated` failure.
   */
  readonly continuation?: { readonly maxContinuations: number } | undefined;
  /**
   * The run around this gate, when there is one: how many steps finished, and the run as rules see
   * it (`scope.run`) with the turn of a response being judged.
   */
  readonly run?: { readonly steps: number; readonly view: (response: TResponse | undefined) => RuleRunView } | undefined;
}
