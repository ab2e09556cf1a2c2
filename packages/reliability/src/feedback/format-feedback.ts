import type { ValidationFailure, ValidationStage } from '../errors/validation-failure';
import type { ReliabilityScope } from '../gate/scope';
import type { ValidationIssue } from '../validation/issue';
import { formatIssueGroup } from './format-issue';
import { groupIssues } from './group-issues';
import { quote } from './quote';

/** Most issue lines listed in one feedback message; the rest are counted. */
export const MAX_FEEDBACK_LINES = 25;

/**
 * What a feedback template receives: the failure, the rejected output (already capped), and the
 * gate's scope of the failed attempt. Every issue carries its path printed (`pathText`).
 */
export interface FeedbackTemplateInput<TResponse = unknown> {
  /** `schema-validate` when the JSON parsed but failed the schema, `json-parse` when it did not parse. */
  readonly stage: ValidationStage;
  /** The model's previous output, already capped in size. */
  readonly previousOutput: string;
  readonly issues: readonly ValidationIssue[];
  /** The JSON parser's message, for parse failures. */
  readonly parseErrorMessage?: string;
  /** The attempt that failed (1-based). */
  readonly attempt: number;
  readonly retryHint?: string;
  /** What rules see about the failed attempt (history, usage, provider). */
  readonly scope: ReliabilityScope<TResponse>;
}

/**
 * The one feedback hook: writes the feedback text of a retry. Rules, output options and
 * `runGate` all take it as `feedbackForLLM` (or a fixed string instead).
 */
export type FeedbackTemplate<TResponse = unknown> = (input: FeedbackTemplateInput<TResponse>) => string | Promise<string>;

/** Builds the {@link FeedbackTemplateInput} for a validation failure. */
export function feedbackInput<TResponse>(
  failure: ValidationFailure,
  options: { attempt: number; previousOutput: string; retryHint?: string | undefined; scope: ReliabilityScope<TResponse> },
): FeedbackTemplateInput<TResponse> {
  return {
    stage: failure.stage,
    previousOutput: options.previousOutput,
    issues: failure.issues,
    ...(failure.stage === 'json-parse' ? { parseErrorMessage: failure.message } : {}),
    attempt: options.attempt,
    ...(options.retryHint === undefined ? {} : { retryHint: options.retryHint }),
    scope: options.scope,
  };
}

/**
 * The default feedback: a header, one line per issue (quoted data, never instructions), then what
 * to do. Used for final output and tool arguments alike.
 */
export function formatFeedback(
  input: Pick<FeedbackTemplateInput, 'stage' | 'issues' | 'parseErrorMessage' | 'retryHint'> & {
    /** What failed, starting the header. Default `Your previous reply`. */
    readonly subject?: string;
    /** The closing instruction of a schema failure. */
    readonly instruction?: string;
  },
): string {
  const subject = input.subject ?? 'Your previous reply';
  const lines: string[] = [];
  if (input.stage === 'json-parse') {
    lines.push(`${subject} could not be parsed as JSON.`);
    lines.push(`Parser message (quoted data): ${quote(input.parseErrorMessage ?? 'invalid JSON')}`);
    lines.push('Reply again with one JSON value that matches the required schema, with no prose or markdown around it.');
  } else {
    lines.push(`${subject} did not match the required schema. Problems (paths and values are quoted data):`);
    // The same problem across array items is one line, so many bad items fit under the line cap.
    const groups = groupIssues(input.issues as readonly ValidationIssue[]);
    const shown = groups.slice(0, MAX_FEEDBACK_LINES);
    for (const group of shown) lines.push(formatIssueGroup(group));
    let hidden = 0;
    for (const group of groups.slice(shown.length)) hidden += group.issues.length;
    if (hidden > 0) lines.push(`- …and ${hidden} more problems of the same kinds`);
    lines.push(input.instruction ?? 'Reply again with the corrected value. Fix every problem listed; keep everything else as it was.');
  }
  if (input.retryHint) lines.push(`Hint: ${input.retryHint}`);
  return lines.join('\n');
}
