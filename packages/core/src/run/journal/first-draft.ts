import type { CallDecision, RunState } from '../../contracts/run-state';
import { JOURNAL_VERSION, type JournalDraft, type JournalStart } from './journal-entry';

/**
 * What a run's journal is told first: a new run's input (its messages, system prompt, tenant,
 * conversation, and the run that called it), a resume with its decisions, or a continuation
 * (`recovery`). Memory's step is never journaled: the next step is the one it wraps.
 */
export function firstDraft(state: RunState, parent: { readonly parentRunId: string | undefined; readonly parentToolCallId: string | undefined }, decisions: ReadonlyMap<string, CallDecision> | undefined, continued: boolean): JournalDraft {
  if (continued) return { type: 'recovery', step: state.step };
  const next = state.next.type === 'load-memory' ? state.next.then : state.next;
  if (decisions) return { type: 'resume', step: state.step, decisions: Object.fromEntries(decisions), next };
  const start: { -readonly [K in keyof JournalStart]: JournalStart[K] } = { version: JOURNAL_VERSION, startedAt: state.startedAt };
  if (state.conversationId !== undefined) start.conversationId = state.conversationId;
  if (state.tenant !== undefined) start.tenant = state.tenant;
  if (state.system !== undefined) start.system = state.system;
  if (parent.parentRunId !== undefined) start.parentRunId = parent.parentRunId;
  if (parent.parentToolCallId !== undefined) start.parentToolCallId = parent.parentToolCallId;
  return { type: 'input', step: 0, start, messages: state.messages };
}
