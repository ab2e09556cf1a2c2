/** A tool call waiting for approval: the run suspended instead of executing it. */
export interface PendingApproval {
  /** The tool call's id, as the model gave it: what `approve` and `reject` name. */
  readonly toolCallId: string;
  readonly toolName: string;
  /** The validated arguments (coerced when coercion applied), as the tool would run with them. */
  readonly arguments: unknown;
}

/** What was decided about a pending call when a run resumes. */
export type ApprovalDecision = { readonly type: 'approved' } | { readonly type: 'rejected'; readonly reason: string | undefined };

/** Tells a pending call from a finished call's record. */
export function isPendingApproval(value: object): value is PendingApproval {
  return 'toolCallId' in value && !('output' in value);
}
