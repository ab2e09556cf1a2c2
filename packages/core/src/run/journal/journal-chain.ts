import { RunStateError } from '../../errors/run-state-error';
import type { StateSigner } from '../state/state-signer';
import type { JournalEntry } from './journal-entry';
import { upgradeJournal } from './upgrade-journal-entry';
import type { StoredJson } from '../state/upgrade-tool-call';
import { EMPTY_HEAD, type JournalHead } from '../../contracts/journal-head';

/** The text an entry's `mac` signs: the `mac` before it, then the entry's JSON without its own. */
const signedText = (previous: string, entry: Omit<JournalEntry, 'mac'> | string): string => `${previous}\n${typeof entry === 'string' ? entry : JSON.stringify(entry)}`;

/** The entry with its `mac`: it chains on `previous` (the `mac` of the entry before it). */
export async function chainEntry(signer: StateSigner, previous: string, entry: Omit<JournalEntry, 'mac'>): Promise<JournalEntry> {
  return { ...entry, mac: await signer.sign(signedText(previous, entry)) };
}

const tampered = (message: string) => new RunStateError({ problem: 'tampered', message });

/**
 * Checks a journal read back (from a store, or handed to `agent.iter()`): entries of one run,
 * numbered from `from.seq` without a gap, each chained with this agent's key on the one before.
 * @throws {RunStateError} `malformed` for what is not a journal, `tampered` for an entry changed,
 * removed, reordered or signed with another key. A journal of format 1 comes back upgraded (see
 * `upgradeJournal`): its entries keep their `mac`, which signs the text they were written as.
 */
export async function verifyJournal(signer: StateSigner, runId: string | undefined, given: readonly unknown[], from: JournalHead = EMPTY_HEAD): Promise<readonly JournalEntry[]> {
  if (!Array.isArray(given) || given.length === 0) throw new RunStateError({ problem: 'malformed', message: 'a journal is a non-empty array of entries' });
  let previous = from.mac;
  const id = runId ?? (given[0] as { runId?: unknown } | null)?.runId;
  const entries: StoredJson[] = [];
  for (const [index, value] of given.entries()) {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new RunStateError({ problem: 'malformed', message: `journal entry ${index} is not an object` });
    const { mac, ...entry } = value as JournalEntry;
    if (typeof mac !== 'string') throw tampered(`journal entry ${index} has no mac: it was not written to be continued, or was changed`);
    if (entry.seq !== from.seq + index) throw tampered(`journal entry ${index} has number ${JSON.stringify(entry.seq)}, expected ${from.seq + index}: an entry was removed or reordered`);
    if (entry.runId !== id) throw tampered(`journal entry ${index} belongs to another run`);
    let valid = false;
    // What runs is what was checked: the entry read back from the very text its mac signs (a getter or a proxy is read once).
    let text = '';
    try {
      text = JSON.stringify(entry);
      valid = await signer.verify(signedText(previous, text), mac);
    } catch (error) {
      throw new RunStateError({ problem: 'malformed', message: `journal entry ${index} could not be read`, cause: error });
    }
    if (!valid) {
      throw tampered(`journal entry ${index} (${String(entry.type)}) does not match its mac: it was changed, or written with another key${signer.ephemeral ? ' (this agent has no stateKey, so it continues only journals it wrote itself, in this process)' : ''}`);
    }
    previous = mac;
    entries.push({ ...(JSON.parse(text) as StoredJson), mac });
  }
  return upgradeJournal(entries);
}
