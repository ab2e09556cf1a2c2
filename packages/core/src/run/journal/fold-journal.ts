import type { AttemptRecord } from '@keel/reliability';
import type { StepRecord } from '../../contracts/step-record';
import { RunStateError } from '../../errors/run-state-error';
import type { Message } from '@keel/provider';
import type { ToolCallRecord } from '../../tools/tool-result';
import type { RunUsage } from '../../usage/usage-ledger';
import type { RunState, ToolJournal } from '../../contracts/run-state';
import type { JournalHead } from '../../contracts/journal-head';
import { keptTurnMessages } from '../steps/kept-turn';
import { JOURNAL_VERSION, type JournalEntry } from './journal-entry';
import { JOURNAL_VERSION_1 } from './upgrade-journal-entry';

/** A journal folded: the run's state after its last entry, where its chain stands, and how it ended when it did. */
export interface FoldedJournal {
  readonly state: RunState;
  /** The next entry's number and the `mac` it chains on. */
  readonly head: JournalHead;
  /** The last entry. */
  readonly last: JournalEntry;
  /** The entry that ended the run (`end` or `suspension`), when it is the last one: the run has its result. */
  readonly ended: JournalEntry | undefined;
}

const NONE: readonly never[] = Object.freeze([]);

const malformed = (message: string) => new RunStateError({ problem: 'malformed', message });

/** A turn's tool journal with one more intent or outcome. */
function journaled(journal: ToolJournal | undefined, entry: JournalEntry): ToolJournal {
  const intents = journal?.intents ?? NONE;
  const outcomes = journal?.outcomes ?? NONE;
  return entry.intent ? { intents: [...intents, entry.intent], outcomes } : { intents, outcomes: [...outcomes, entry.outcome as ToolCallRecord] };
}

/**
 * The run's state as its journal tells it: the `input` entry's start, then each entry's additions
 * appended and its replacements applied, in order. `usage` is the run's usage after the last entry
 * that states it (an entry does when the run ended or suspended), or what `usageOf` adds up from
 * the attempts. Pure: the same entries give the same state.
 * @throws {RunStateError} `malformed` when the first entry is not an `input` of this format.
 */
export function foldJournal(entries: readonly JournalEntry[], usageOf: (attempts: readonly AttemptRecord[]) => RunUsage): FoldedJournal {
  const first = entries[0];
  const start = first?.type === 'input' ? first.start : undefined;
  if (!first || !start) throw malformed('a journal begins with its input entry');
  if (start.version !== JOURNAL_VERSION) throw new RunStateError({ problem: 'unsupported-version', message: `the journal has format version ${JSON.stringify(start.version)}; this Keel reads versions ${JOURNAL_VERSION_1} and ${JOURNAL_VERSION}` });
  const messages: Message[] = [];
  const steps: StepRecord[] = [];
  const toolCalls: ToolCallRecord[] = [];
  const attempts: AttemptRecord[] = [];
  let state: RunState = {
    runId: first.runId,
    conversationId: start.conversationId,
    tenant: start.tenant,
    system: start.system,
    startedAt: start.startedAt,
    elapsedMs: 0,
    step: 0,
    messages,
    steps,
    toolCalls,
    attempts,
    usage: usageOf(NONE),
    compaction: undefined,
    loadedTools: undefined,
    loops: 0,
    next: { type: 'ask-model' },
  };
  for (const entry of entries) {
    if (entry.messages) messages.push(...entry.messages);
    else if (entry.type === 'tool-results' && state.next.type === 'call-tools') messages.push(...keptTurnMessages(state.next.turn, entry.toolCalls ?? NONE));
    if (entry.steps) steps.push(...entry.steps);
    if (entry.toolCalls) toolCalls.push(...entry.toolCalls);
    if (entry.attempts) attempts.push(...entry.attempts);
    let next = entry.next ?? state.next;
    if (entry.intent || entry.outcome) {
      if (next.type !== 'call-tools') throw malformed(`journal entry ${entry.seq} records a tool call outside a turn of tool calls`);
      next = { type: 'call-tools', turn: { ...next.turn, journal: journaled(next.turn.journal, entry) } };
    }
    state = {
      ...state,
      step: entry.step,
      elapsedMs: entry.elapsedMs,
      compaction: entry.compaction ?? state.compaction,
      loadedTools: entry.loadedTools ?? state.loadedTools,
      loops: entry.loops ?? state.loops,
      // When the step began is this process's clock: a continued run's part of the step begins when it goes on.
      stepBegan: entry.stepCalls === undefined ? state.stepBegan : { at: 0, calls: entry.stepCalls },
      next,
    };
  }
  const last = entries.at(-1) as JournalEntry;
  const stated = last.end?.usage ?? last.suspension?.usage;
  state = { ...state, usage: stated ?? usageOf(attempts) };
  const ended = last.type === 'end' || last.type === 'suspension' ? last : undefined;
  return { state, head: { seq: last.seq + 1, mac: last.mac ?? '' }, last, ended };
}
