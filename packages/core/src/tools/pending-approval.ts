/** A tool call waiting for approval: the run suspended instead of executing it. */
export interface PendingApproval {
  /** The tool call's id, as the model gave it: what `approve` and `reject` name. */
  readonly toolCallId: string;
  readonly toolName: string;
  /** The validated arguments (coerced when coercion applied), as the tool would run with them. */
  readonly arguments: unknown;
  /**
   * The call runs an agent (`agent.asTool()`) that suspended for approvals of its own: which agent,
   * its suspended state (signed by it, carried in this run's signed state), and the calls it waits
   * on (the tools that need the approval). The decision on this call is the decision on each of
   * them: resumed, the agent goes on inside the call with it.
   */
  readonly nested?: NestedApproval;
}

/** A suspended agent called as a tool, as its calling run's pending call carries it. */
export interface NestedApproval {
  /** The agent's tool name. */
  readonly agent: string;
  /** 1 for an agent the suspended run called, 2 for one that agent called, and so on. */
  readonly depth: number;
  /** The agent's run. */
  readonly runId: string;
  /** The calls the agent waits on. */
  readonly pending: readonly PendingApproval[];
  /** The agent's sealed state: what resumes it. */
  readonly state: unknown;
}

/**
 * What was decided about a pending call when a run resumes. `nested`: the suspended state of the
 * agent the call runs (see {@link PendingApproval.nested}), which the decision resumes.
 */
export type ApprovalDecision = { readonly type: 'approved'; readonly nested?: unknown } | { readonly type: 'rejected'; readonly reason: string | undefined; readonly nested?: unknown };

/** Tells a pending call from a finished call's record. */
export function isPendingApproval(value: object): value is PendingApproval {
  return 'toolCallId' in value && !('output' in value);
}
