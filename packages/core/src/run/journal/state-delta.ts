import type { NextStep, RunState } from '../../contracts/run-state';
import type { JournalDraft, JournalEntryType } from './journal-entry';

/** What `after` appended to one of the run's lists (they only grow: a step never rewrites an element). */
function appended<T>(before: readonly T[], after: readonly T[], list: string): readonly T[] | undefined {
  if (after === before || after.length === before.length) return undefined;
  if (after.length < before.length || (before.length > 0 && after[before.length - 1] !== before[before.length - 1])) {
    throw new TypeError(`a step rewrote the run's ${list}: a journal only appends`);
  }
  return after.slice(before.length);
}

/** What an entry between two states records, by the step that ran and the step it leads to. */
function entryType(ran: NextStep['type'], next: NextStep['type']): JournalEntryType {
  if (ran === 'compact-context') return 'compaction';
  if (next === 'compact-context') return 'compaction-due';
  if (next === 'end') return 'answer';
  if (next === 'suspend') return 'suspension-due';
  if (ran === 'ask-model') return 'model-turn';
  return 'tool-results';
}

/**
 * The entry a step's move from `before` to `after` makes: what it appended to the run's lists and
 * what it replaced, nothing the journal holds already. Model calls are not read from the states
 * (the run's ledger has them): the writer adds those made since its last entry. Memory's step
 * makes none (what it loads is never journaled, and it goes on to the step it wraps).
 */
export function transitionDraft(before: RunState, after: RunState): JournalDraft | undefined {
  // Memory's step only loads what a continued run loads again, and goes on to the step it wraps.
  if (before.next.type === 'load-memory') return undefined;
  const draft: { -readonly [K in keyof JournalDraft]: JournalDraft[K] } = { type: entryType(before.next.type, after.next.type), step: after.step };
  const messages = appended(before.messages, after.messages, 'messages');
  // A turn's calls all finished: its messages are made from the turn and the records (see keptTurnMessages), never written twice.
  if (messages && draft.type !== 'tool-results') draft.messages = messages;
  const steps = appended(before.steps, after.steps, 'steps');
  if (steps) draft.steps = steps;
  const toolCalls = appended(before.toolCalls, after.toolCalls, 'tool calls');
  if (toolCalls) draft.toolCalls = toolCalls;
  if (after.compaction !== before.compaction && after.compaction !== undefined) draft.compaction = after.compaction;
  if (after.loadedTools !== before.loadedTools && after.loadedTools !== undefined) draft.loadedTools = after.loadedTools;
  if (after.loops !== before.loops) draft.loops = after.loops;
  if (after.next !== before.next) draft.next = after.next;
  if (after.stepBegan !== undefined && after.stepBegan.calls !== before.stepBegan?.calls) draft.stepCalls = after.stepBegan.calls;
  return draft;
}
