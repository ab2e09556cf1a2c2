import { RunStateError } from '../../errors/run-state-error';
import type { PendingApproval } from '../../tools/pending-approval';
import { serializeToolResult } from '../../tools/serialize-tool-result';
import type { UnknownOutcome } from '../../tools/unknown-outcome';
import type { CallDecision } from '../../contracts/run-state';

/**
 * What `agent.resume()` is told about the calls a suspended run waits on: each pending approval
 * approved or rejected, each unknown outcome settled (what happened) or retried.
 */
export interface ResumeDecisions {
  /** Ids (`toolCallId`) of the pending calls to run. */
  readonly approve?: readonly string[];
  /** Pending calls not to run: the model gets an error result coded `approval-rejected` with the reason. */
  readonly reject?: readonly { readonly id: string; readonly reason?: string }[];
  /**
   * Unknown outcomes (`result.unknownOutcomes`) settled by what you found happened: `result` is
   * what the tool returned (or would have), sent to the model as its result; the call does not run.
   */
  readonly outcomes?: readonly { readonly id: string; readonly result: unknown }[];
  /** Unknown outcomes to run again, with the same arguments and idempotency key. */
  readonly retry?: readonly string[];
}

/** Longest rejection reason sent to the model, in characters. */
const MAX_REASON_CHARS = 2_000;

const refuse = (message: string): never => {
  throw new RunStateError({ problem: 'bad-decisions', message });
};

const listed = (ids: Iterable<string>): string => [...ids].map((id) => JSON.stringify(id)).join(', ') || 'none';

const arrayOf = (value: unknown, what: string): readonly unknown[] => (value === undefined ? [] : Array.isArray(value) ? value : refuse(what));

/**
 * The decision of each call the run waits on. Every one must be decided exactly once, approvals
 * with `approve`/`reject` and unknown outcomes with `outcomes`/`retry`, and nothing else: anything
 * else is refused, so a decision never lands on a call it was not meant for.
 * @throws {RunStateError} (`bad-decisions`) naming what does not fit.
 */
export function checkDecisions(pending: readonly PendingApproval[], unknown: readonly UnknownOutcome[], given: ResumeDecisions | undefined): ReadonlyMap<string, CallDecision> {
  if (typeof given !== 'object' || given === null) return refuse('give the decisions: { approve: [ids], reject: [{ id, reason }] } for pending approvals, { outcomes: [{ id, result }], retry: [ids] } for unknown outcomes');
  const approve = arrayOf(given.approve, 'approve must be an array of tool call ids');
  const reject = arrayOf(given.reject, 'reject must be an array of { id, reason? }');
  const outcomes = arrayOf(given.outcomes, 'outcomes must be an array of { id, result }');
  const retry = arrayOf(given.retry, 'retry must be an array of tool call ids');
  const approvals = new Set(pending.map((call) => call.toolCallId));
  const unknowns = new Set(unknown.map((call) => call.toolCallId));
  const decisions = new Map<string, CallDecision>();
  const decide = (id: unknown, decision: CallDecision) => {
    if (typeof id !== 'string') return refuse(`a decision names ${JSON.stringify(id) ?? String(id)}, not a tool call id`);
    const settling = decision.type === 'outcome' || decision.type === 'retry';
    const fits = settling ? unknowns : approvals;
    if (!fits.has(id)) {
      if (settling && approvals.has(id)) return refuse(`${JSON.stringify(id)} waits for approval: approve or reject it`);
      if (!settling && unknowns.has(id)) return refuse(`${JSON.stringify(id)} is an unknown outcome: settle it with outcomes or retry`);
      return refuse(`${JSON.stringify(id)} is not ${settling ? 'an unknown outcome' : 'a pending call'} of this run (pending: ${listed(approvals)}; unknown outcomes: ${listed(unknowns)})`);
    }
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
  for (const entry of outcomes) {
    if (typeof entry !== 'object' || entry === null || !('result' in entry)) return refuse('each outcome is { id, result }');
    const { id, result } = entry as { id?: unknown; result: unknown };
    const serialized = serializeToolResult(result, undefined);
    if (!serialized.ok) return refuse(`the result for ${JSON.stringify(id)} cannot be sent to the model: ${serialized.message}`);
    decide(id, { type: 'outcome', output: serialized.text });
  }
  for (const id of retry) decide(id, { type: 'retry' });
  const undecided = [...approvals, ...unknowns].filter((id) => !decisions.has(id));
  if (undecided.length > 0) refuse(`every call the run waits on needs a decision; undecided: ${listed(undecided)}`);
  return decisions;
}
