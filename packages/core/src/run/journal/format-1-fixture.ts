/** Journals and suspended states as format 1 wrote them (tool calls named `id` / `name`), signed as it signed them. */
import { canonicalJson } from '@keel/reliability/internal';
import type { JournalEntry, RunStateSnapshot } from '../../index';
import { stateSigner } from '../state/state-signer';
import { chainEntry } from './journal-chain';

type Json = Record<string, unknown>;

/** A tool call's record or intent as format 1 named it. */
function named1(call: unknown): Json {
  const { toolCallId, toolName, ...rest } = call as Json;
  return { id: toolCallId, name: toolName, ...rest };
}

const list1 = (calls: readonly unknown[]): Json[] => calls.map(named1);

/** An entry of this format as format 1 wrote it (the turns of `next` hold no call records in the journals the tests write). */
function entryOfFormat1(entry: Omit<JournalEntry, 'mac'>): Json {
  const old: Json = { ...entry };
  if (entry.toolCalls) old.toolCalls = list1(entry.toolCalls);
  if (entry.intent) old.intent = named1(entry.intent);
  if (entry.outcome) old.outcome = named1(entry.outcome);
  if (entry.suspension) old.suspension = { ...entry.suspension, turn: { ...entry.suspension.turn, finished: list1(entry.suspension.turn.finished) } };
  return old;
}

/**
 * A journal as format 1 wrote it: each entry's tool calls named `id` / `name`, its input of
 * version 1 (or `version`), chained again with `key` as format 1 chained it.
 */
export async function journalOfFormat1(entries: readonly JournalEntry[], key: string, version = 1): Promise<JournalEntry[]> {
  const signer = stateSigner(key);
  const written: JournalEntry[] = [];
  let previous = '';
  for (const { mac: _mac, ...entry } of entries) {
    const old = entryOfFormat1(entry);
    if (entry.start) old.start = { ...entry.start, version };
    const chained = await chainEntry(signer, previous, old as unknown as Omit<JournalEntry, 'mac'>);
    written.push(chained);
    previous = chained.mac ?? '';
  }
  return written;
}

/** A suspended state as format 1 sealed it: its records' calls named `id` / `name`, version 1, signed with `key`. */
export async function stateOfFormat1(state: RunStateSnapshot, key: string): Promise<Json> {
  const { signature: _signature, ...body } = JSON.parse(JSON.stringify(state)) as RunStateSnapshot;
  const old: Json = { ...body, version: 1, toolCalls: list1(body.toolCalls), turn: { ...body.turn, finished: list1(body.turn.finished) } };
  return { ...old, signature: await stateSigner(key).sign(canonicalJson(old)) };
}
