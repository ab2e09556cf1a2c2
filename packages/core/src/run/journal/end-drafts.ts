import { AbortedError } from '@keel/reliability';
import { reduceError } from '@keel/reliability/internal';
import type { RunResult } from '../../contracts/run-result';
import type { RunUsage } from '../../usage/usage-ledger';
import type { RunState } from '../../contracts/run-state';
import type { JournalDraft } from './journal-entry';
import { transitionDraft } from './state-delta';

/** The `end` entry: the final turn kept (what the `end` step added), and what the run answered. */
export function endDraft(before: RunState, after: RunState, result: RunResult<unknown>): JournalDraft {
  const kept = transitionDraft(before, after) ?? { type: 'end', step: after.step };
  const complete = result.status === 'complete' ? result : undefined;
  const answer = complete ? { value: complete.value, provenance: complete.provenance, repairs: complete.repairs, coercions: complete.coercions, issues: complete.issues } : undefined;
  return { ...kept, type: 'end', end: { text: result.text, finishReason: result.finishReason, ...(answer ? { answer } : {}), usage: result.usage } };
}

/** The `failure` entry: how the run failed (or was aborted), with the loops its failing step had detected. */
export function failureDraft(state: RunState, error: unknown, aborted: boolean, usage: RunUsage): JournalDraft {
  const reduced = reduceError(error);
  return {
    type: 'failure',
    step: state.step,
    ...(state.loops > 0 ? { loops: state.loops } : {}),
    end: { text: '', finishReason: 'error', errorName: reduced.name, errorMessage: reduced.message, ...(aborted || AbortedError.isInstance(error) ? { aborted: true } : {}), usage },
  };
}
