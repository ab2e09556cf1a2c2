import type { CompleteRunResult, RunRecord, RunResult, SuspendedRunResult } from '../../agent/run-result';
import { sealState } from '../state/run-state-snapshot';
import type { StateSigner } from '../state/state-signer';
import type { FoldedJournal } from './fold-journal';
import { suspendedState } from './suspended-state';

const NONE: readonly [] = Object.freeze([]) as readonly [];

/**
 * The result of a run whose journal ends with its `end` or `suspension` entry, as the run gave it:
 * what `recover()` of a finished run returns. A suspended run's state is sealed again from the
 * journal (the same state, the same signature: it signs canonical JSON). `undefined` while the
 * run has not ended.
 */
export async function journalResult(folded: FoldedJournal, signer: StateSigner): Promise<RunResult<unknown> | undefined> {
  const { ended, state } = folded;
  if (!ended) return undefined;
  const record = (text: string, finishReason: RunRecord['finishReason'], toolCalls: RunRecord['toolCalls']): RunRecord => ({
    runId: state.runId,
    text,
    messages: state.messages,
    steps: state.steps,
    toolCalls,
    attempts: state.attempts,
    usage: state.usage,
    finishReason,
    startedAt: state.startedAt,
    durationMs: state.elapsedMs,
  });
  const suspension = ended.suspension;
  if (suspension) {
    const sealed = await sealState(suspendedState(state, suspension, folded.head), signer);
    const waiting = { status: 'suspended', pendingApprovals: suspension.pending, unknownOutcomes: suspension.unknown ?? NONE, state: sealed } as const;
    const suspended: SuspendedRunResult = Object.assign(record('', suspension.turn.finishReason, [...state.toolCalls, ...suspension.turn.finished]), waiting);
    return suspended;
  }
  const end = ended.end;
  const answer = end?.answer;
  if (!end || !answer) return undefined;
  const complete: CompleteRunResult<unknown> = {
    ...record(end.text, end.finishReason, state.toolCalls),
    status: 'complete',
    value: answer.value,
    provenance: answer.provenance,
    repairs: answer.repairs,
    coercions: answer.coercions,
    issues: answer.issues,
    pendingApprovals: NONE,
    unknownOutcomes: NONE,
  };
  return complete;
}
