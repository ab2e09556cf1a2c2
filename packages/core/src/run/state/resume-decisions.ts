import { RunStateError } from '../../errors/run-state-error';
import type { ApprovalDecision, PendingApproval } from '../../tools/pending-approval';

/** What `agent.resume()` is told about the pending calls of a suspended run: each one approved or rejected. */
export interface ResumeDecisions {
  /** Ids (`toolCallId`) of the pending calls to run. */
  readonly approve?: readonly string[];
  /** Pending calls not to run: the model gets an error result coded `approval-rejected` with the reason. */
  readonly reject?: readonly { readonly id: string; readonly reason?: string }[];
}

/** Longest rejection reason sent to the model, in characters. */
const MAX_REASON_CHARS = 2_000;

const refuse = (message: string): never => {
  throw new RunStateError({ problem: 'bad-decisions', message });
};

/**
 * The decision of each pending call. Every pending call must be decided exactly once, and only
 * pending calls: anything else is refused, so a decision never lands on a call it was not meant for.
 * @throws {RunStateError} (`bad-decisions`) naming what does not fit.
 */
export function checkDecisions(pending: readonly PendingApproval[], given: ResumeDecisions | undefined): ReadonlyMap<string, ApprovalDecision> {
  if (typeof given !== 'object' || given === null) return refuse('give the decisions: { approve: [ids], reject: [{ id, reason }] }');
  const approve: unknown = given.approve ?? [];
  const reject: unknown = given.reject ?? [];
  if (!Array.isArray(approve)) return refuse('approve must be an array of tool call ids');
  if (!Array.isArray(reject)) return refuse('reject must be an array of { id, reason? }');
  const ids = new Set(pending.map((call) => call.toolCallId));
  const decisions = new Map<string, ApprovalDecision>();
  const decide = (id: unknown, decision: ApprovalDecision) => {
    if (typeof id !== 'string') return refuse(`a decision names ${JSON.stringify(id) ?? String(id)}, not a tool call id`);
    if (!ids.has(id)) return refuse(`${JSON.stringify(id)} is not a pending call of this run (pending: ${[...ids].map((pendingId) => JSON.stringify(pendingId)).join(', ')})`);
    if (decisions.has(id)) return refuse(`${JSON.stringify(id)} is decided twice`);
    decisions.set(id, decision);
  };
  for (const id of approve) decide(id, { type: 'approved' });
  for (const entry of reject) {
    if (typeof entry !== 'object' || entry === null) return refuse('each rejection is { id, reason? }');
    const { id, reason } = entry as { id?: unknown; reason?: unknown };
    if (reason !== undefined && typeof reason !== 'string') return refuse(`the reason for ${JSON.stringify(id)} must be a string`);
    decide(id, { type: 'rejected', reason: reason === undefined ? undefined : reason.slice(0, MAX_REASON_CHARS) });
  }
  const undecided = [...ids].filter((id) => !decisions.has(id));
  if (undecided.length > 0) refuse(`every pending call needs a decision; undecided: ${undecided.map((id) => JSON.stringify(id)).join(', ')}`);
  return decisions;
}
