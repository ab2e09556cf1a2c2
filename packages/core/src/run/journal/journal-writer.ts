import { isPromiseLike } from '@keel/reliability/internal';
import type { AttemptRecord } from '@keel/reliability';
import type { RunStatus } from '../../contracts/run-store';
import type { EventBus } from '../../events/event-bus';
import type { StateSigner } from '../state/state-signer';
import { chainEntry } from './journal-chain';
import type { JournalHead } from '../../contracts/journal-head';
import type { JournalDraft, JournalEntry } from './journal-entry';

/**
 * Receives each entry of a run's journal once, as it is written (`builder.onJournal(listener)`).
 * An observer: a throw or a rejection is reported as `listener.error` (its `event` is `journal`)
 * and never changes the run. Entries are frozen.
 */
export type JournalListener = (entry: JournalEntry) => unknown;

/** Where a run's entries go besides its listeners: a durable run's store (each write awaited, a refusal fails the run). */
export interface JournalStore {
  append(entries: readonly JournalEntry[], status: RunStatus): Promise<void>;
}

/** What a run's journal is written with. */
export interface JournalWriterOptions {
  readonly runId: string;
  /** Where the journal stands: a continued run goes on from its last entry. */
  readonly head: JournalHead;
  /** Model calls of the ledger that entries hold already (a continued run's). */
  readonly attemptsSeen: number;
  readonly store: JournalStore | undefined;
  readonly listeners: readonly JournalListener[];
  /** Chains the entries (`mac`) when the journal is kept to be continued; without one, entries carry no `mac`. */
  readonly signer: StateSigner | undefined;
  readonly bus: EventBus;
  /** Sees each append's entries once the store took them (`agent.iter()`). */
  readonly observe: ((entries: readonly JournalEntry[]) => void) | undefined;
}

/** Where a run stands after an entry of this type. */
const statusOf = (entry: JournalEntry | undefined): RunStatus => (entry?.type === 'end' ? 'complete' : entry?.type === 'suspension' ? 'suspended' : entry?.type === 'failure' ? 'failed' : 'running');

/**
 * Writes one run's journal: numbers each entry, chains it on the one before, adds the model calls
 * the ledger recorded since the last entry, hands the entries to the store (awaited), then to the
 * listeners. Writes go out one at a time in the order they were made (a turn's tool calls write
 * concurrently). One writer per run; nothing else numbers its entries.
 */
export class JournalWriter {
  #head: JournalHead;
  #attemptsSeen: number;
  #tail: Promise<unknown> = Promise.resolve();
  #deferred: JournalDraft | undefined;
  #wrote = false;
  readonly #options: JournalWriterOptions;

  constructor(options: JournalWriterOptions) {
    this.#options = options;
    this.#head = options.head;
    this.#attemptsSeen = options.attemptsSeen;
  }

  /** Where the journal stands once every write made so far is done. */
  get head(): JournalHead {
    return this.#head;
  }

  /** Writes a deferred entry now, if one waits (a resume's, once its calls are about to begin). */
  flush(elapsedMs: number, attempts: readonly AttemptRecord[]): Promise<unknown> {
    return this.#deferred === undefined ? Promise.resolve() : this.write([], elapsedMs, attempts);
  }

  /** Whether entries are chained: the journal is kept to be continued (a store, `agent.iter()`), so tool calls record their intents and outcomes. */
  get chained(): boolean {
    return this.#options.signer !== undefined;
  }

  /** Holds `draft` back until the next write (a resume's entry: a resume that fails before its calls begin leaves the journal at its suspension). */
  defer(draft: JournalDraft): void {
    this.#deferred = draft;
  }

  /**
   * Whether this writer's entries landed: a run whose first entries never did (its store refused
   * them, or a resume failed before its calls began) leaves the journal as it found it, and reports
   * its failure without writing it (a new run's id is given back, a suspension resumes again).
   */
  get wrote(): boolean {
    return this.#wrote;
  }

  /**
   * Appends `drafts` (and a deferred entry before them): numbered, chained, with the model calls of
   * `attempts` not yet in an entry given to the first. Resolves with the entries once the store took them.
   */
  write(drafts: readonly JournalDraft[], elapsedMs: number, attempts: readonly AttemptRecord[]): Promise<readonly JournalEntry[]> {
    const deferred = this.#deferred;
    const all = deferred ? [deferred, ...drafts] : drafts;
    this.#deferred = undefined;
    const written = this.#tail.then(() => this.#append(all, elapsedMs, attempts));
    // A deferred entry that did not land waits for the next write.
    if (deferred) written.catch(() => (this.#deferred ??= deferred));
    this.#tail = written.catch(() => undefined);
    return written;
  }

  /** Sets only where the run stands (no entry), in the order of the writes. */
  status(status: RunStatus): Promise<void> {
    const store = this.#options.store;
    const done = this.#tail.then(() => store?.append([], status));
    this.#tail = done.catch(() => undefined);
    return done;
  }

  async #append(drafts: readonly JournalDraft[], elapsedMs: number, attempts: readonly AttemptRecord[]): Promise<readonly JournalEntry[]> {
    const { runId, signer, store, listeners, bus } = this.#options;
    const entries: JournalEntry[] = [];
    let { seq, mac } = this.#head;
    // The model calls taken now are those the entries hold: a call recorded while they are written goes with the next.
    const seen = attempts.length;
    const fresh = seen > this.#attemptsSeen ? attempts.slice(this.#attemptsSeen, seen) : undefined;
    const at = Date.now();
    for (const [index, draft] of drafts.entries()) {
      const withCalls = index === 0 && fresh ? { ...draft, attempts: fresh } : draft;
      const body: Omit<JournalEntry, 'mac'> = { seq, type: withCalls.type, runId, at, step: withCalls.step, elapsedMs: Math.round(elapsedMs), ...withoutKeys(withCalls) };
      const entry: JournalEntry = signer ? await chainEntry(signer, mac, body) : body;
      entries.push(entry);
      seq += 1;
      mac = entry.mac ?? '';
    }
    if (store) await store.append(entries, statusOf(entries.at(-1)));
    this.#head = { seq, mac };
    this.#attemptsSeen = Math.max(this.#attemptsSeen, seen);
    if (entries.length > 0) this.#wrote = true;
    if (listeners.length === 0 && !this.#options.observe) return entries;
    // Readers get their own frozen copy: an entry shares the run's messages and records, which a
    // reader must never be able to change (a listener only observes).
    const delivered = entries.map(frozenCopy);
    this.#options.observe?.(delivered);
    for (const entry of delivered) {
      for (const listener of listeners) {
        try {
          const returned = listener(entry);
          if (isPromiseLike(returned)) returned.then(undefined, (error: unknown) => bus.reportFailure('journal', { runId, step: entry.step }, error));
        } catch (error) {
          bus.reportFailure('journal', { runId, step: entry.step }, error);
        }
      }
    }
    return entries;
  }
}

/** The entry as plain JSON, frozen all the way down (what a reader receives). */
function frozenCopy(entry: JournalEntry): JournalEntry {
  return deepFreeze(JSON.parse(JSON.stringify(entry)) as JournalEntry);
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

/** A draft's fields after `type` and `step`, in the order it holds them. */
function withoutKeys(draft: JournalDraft): Omit<JournalDraft, 'type' | 'step'> {
  const { type: _type, step: _step, ...rest } = draft;
  return rest;
}
