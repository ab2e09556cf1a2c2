import type { RunRecord, RunResult } from '../../contracts/run-result';
import { completeResult, suspendedResult } from '../steps/end';
import { sealState } from '../state/run-state-snapshot';
import type { StateSigner } from '../state/state-signer';
import type { FoldedJournal } from './fold-journal';
import { suspendedState } from './suspended-state';

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
    return suspendedResult(record('', suspension.turn.finishReason, [...state.toolCalls, ...suspension.turn.finished]), sealed);
  }
  const end = ended.end;
  const answer = end?.answer;
  return end && answer ? completeResult(record(end.text, end.finishReason, state.toolCalls), answer) : undefined;
}
