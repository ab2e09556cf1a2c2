import { isStoredObject, type StoredJson, upgradeToolCall, upgradeToolCalls } from '../state/upgrade-tool-call';
import { JOURNAL_VERSION, type JournalEntry } from './journal-entry';

/** The format of journals before tool calls' records and intents were named `toolCallId` / `toolName`. */
export const JOURNAL_VERSION_1 = 1;

/** A turn of tool calls (`ToolTurn`) of format 1 with its calls' records and intents upgraded. */
function upgradeTurn(turn: unknown): unknown {
  if (!isStoredObject(turn)) return turn;
  const upgraded: Record<string, unknown> = { ...turn };
  if (isStoredObject(turn.resumed)) upgraded.resumed = { ...turn.resumed, finished: upgradeToolCalls(turn.resumed.finished) };
  if (isStoredObject(turn.journal)) upgraded.journal = { ...turn.journal, intents: upgradeToolCalls(turn.journal.intents), outcomes: upgradeToolCalls(turn.journal.outcomes) };
  if (isStoredObject(turn.overflowed)) upgraded.overflowed = { ...turn.overflowed, finished: upgradeToolCalls(turn.overflowed.finished) };
  return upgraded;
}

/** The step an entry of format 1 names next (`NextStep`), with the turn it holds upgraded. */
function upgradeNext(next: unknown): unknown {
  if (!isStoredObject(next)) return next;
  if (next.type === 'load-memory') return { ...next, then: upgradeNext(next.then) };
  if (next.type === 'suspend' && isStoredObject(next.suspending)) return { ...next, suspending: { ...next.suspending, turn: upgradeTurn(next.suspending.turn), finished: upgradeToolCalls(next.suspending.finished) } };
  return 'turn' in next ? { ...next, turn: upgradeTurn(next.turn) } : next;
}

/**
 * A journal entry of format 1 as this format has it: every record and intent of a tool call it
 * holds (`toolCalls`, `intent`, `outcome`, the turn of `next`, `suspension.turn.finished`) names
 * the call `toolCallId` / `toolName`; an `input` entry's start says this format's version. Run it
 * after the entry's chain was checked: its `mac` stays the one that signs the text format 1 wrote.
 * Lenient: what is not as format 1 wrote it is left as it is (the viewer reads any trace file
 * through it).
 */
export function upgradeJournalEntry(entry: StoredJson): StoredJson {
  const upgraded: Record<string, unknown> = { ...entry };
  if ('toolCalls' in entry) upgraded.toolCalls = upgradeToolCalls(entry.toolCalls);
  if ('intent' in entry) upgraded.intent = upgradeToolCall(entry.intent);
  if ('outcome' in entry) upgraded.outcome = upgradeToolCall(entry.outcome);
  if ('next' in entry) upgraded.next = upgradeNext(entry.next);
  if (isStoredObject(entry.suspension) && isStoredObject(entry.suspension.turn)) upgraded.suspension = { ...entry.suspension, turn: { ...entry.suspension.turn, finished: upgradeToolCalls(entry.suspension.turn.finished) } };
  if (isStoredObject(entry.start) && entry.start.version === JOURNAL_VERSION_1) upgraded.start = { ...entry.start, version: JOURNAL_VERSION };
  return upgraded;
}

/**
 * A journal read back and checked (each entry's chain), as this format has it: when its `input`
 * entry says format 1, each entry is upgraded ({@link upgradeJournalEntry}; entries this format
 * appended to it, when it was continued, are kept as they are). Other versions are left to the
 * fold, which refuses them as `unsupported-version`.
 */
export function upgradeJournal(entries: readonly StoredJson[]): readonly JournalEntry[] {
  const start = entries[0]?.start;
  const earlier = isStoredObject(start) && start.version === JOURNAL_VERSION_1;
  return (earlier ? entries.map(upgradeJournalEntry) : entries) as unknown as readonly JournalEntry[];
}
