import type { UnsignedState } from '../../contracts/run-state-snapshot';
import type { RunState } from '../../contracts/run-state';
import type { JournalHead } from '../../contracts/journal-head';
import type { JournalSuspension } from './journal-entry';

/**
 * The state a suspended run is sealed with: its run state as of the suspension and the
 * suspension's own fields. The same for the run that suspends and for a journal folded up to its
 * `suspension` entry, so a store that keeps only the journal gives back the very state the run
 * handed out (its signature is the same: it signs canonical JSON).
 */
export function suspendedState(state: Pick<RunState, 'runId' | 'conversationId' | 'tenant' | 'system' | 'startedAt' | 'elapsedMs' | 'step' | 'messages' | 'steps' | 'toolCalls' | 'attempts' | 'compaction' | 'loadedTools' | 'loops'>, suspension: JournalSuspension, head: JournalHead | undefined): UnsignedState {
  const { usage, ...own } = suspension;
  return {
    agent: own.agent,
    ...(state.tenant === undefined ? {} : { tenant: state.tenant }),
    expiresAt: own.expiresAt,
    suspensionId: own.suspensionId,
    runId: state.runId,
    ...(state.conversationId === undefined ? {} : { conversationId: state.conversationId }),
    ...(state.system === undefined ? {} : { system: state.system }),
    startedAt: state.startedAt,
    suspendedAt: own.suspendedAt,
    elapsedMs: state.elapsedMs,
    step: state.step,
    messages: state.messages,
    steps: state.steps,
    toolCalls: state.toolCalls,
    attempts: state.attempts,
    usage,
    // A resumed run sends what it sent before it suspended, not its whole history again.
    ...(state.compaction === undefined ? {} : { compaction: state.compaction }),
    ...(state.loadedTools === undefined || state.loadedTools.length === 0 ? {} : { loadedTools: state.loadedTools }),
    ...(state.loops > 0 ? { loops: state.loops } : {}),
    ...(head === undefined ? {} : { journal: head }),
    turn: own.turn,
    pending: own.pending,
    ...(own.unknown === undefined ? {} : { unknown: own.unknown }),
  };
}
