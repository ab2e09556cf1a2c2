import type { ToolCallPart } from '@keel/provider';
import type { PendingApproval } from '../../tools/pending-approval';
import { idempotencyKeyOf, runToolCall, type ToolCallJournal, type ToolRunEnvironment } from '../../tools/run-tool-call';
import type { ToolCallRecord } from '../../tools/tool-result';
import type { UnknownOutcome } from '../../tools/unknown-outcome';
import type { RunContext } from '../state/run-context';
import type { JournalDraft } from '../journal/journal-entry';
import type { RunState, ToolIntent, ToolTurn } from '../../contracts/run-state';

/** How one call of a turn ended: it ran, it waits for approval, or a crash left its outcome unknown. */
export type CallOutcome = ToolCallRecord | PendingApproval | UnknownOutcome;

/** Tells an unknown outcome apart from a record and a pending approval. */
export const isUnknownOutcome = (outcome: CallOutcome): outcome is UnknownOutcome => 'idempotencyKey' in outcome;

/** A durable run's journal of one turn: what an earlier owner recorded, and the writer of what this one does. */
export interface TurnJournal extends ToolCallJournal {
  readonly recorded: (id: string) => ToolCallRecord | undefined;
  readonly started: (id: string) => ToolIntent | undefined;
}

/**
 * The record of a turn's tool calls in a durable run: each intent and outcome is an entry of the
 * run's journal, appended to its store before the call runs (an intent) and once it finished (an
 * outcome). What an earlier owner recorded comes from the journal it wrote, also when a run without
 * a store continues that journal (it writes nothing more). None for other runs.
 */
export function turnJournal(context: RunContext, state: RunState, turn: ToolTurn): TurnJournal | undefined {
  const { journal } = context;
  // A journal kept to be continued (a store, `agent.iter()`) records each call; what an earlier part
  // of the run recorded holds whoever continues it.
  const durable = journal?.chained === true ? journal : undefined;
  if (!durable && !turn.journal) return undefined;
  const recorded = new Map((turn.journal?.outcomes ?? []).map((record) => [record.toolCallId, record]));
  const started = new Map((turn.journal?.intents ?? []).map((intent) => [intent.toolCallId, intent]));
  const write = (draft: JournalDraft) => (durable ? durable.write([draft], state.elapsedMs + performance.now() - context.started, context.ledger.attempts).then(() => undefined) : Promise.resolve());
  return {
    recorded: (id) => recorded.get(id),
    started: (id) => started.get(id),
    intent: (intent) => write({ type: 'tool-intent', step: state.step, intent }),
    outcome: (record) => write({ type: 'tool-outcome', step: state.step, outcome: record }),
  };
}

/** An environment for calls that were decided already: they are checked again, never re-asked. */
export const decidedEnvironment = (environment: ToolRunEnvironment): ToolRunEnvironment => ({
  ...environment,
  reAsk: () => Promise.reject(new TypeError('a decided call is never re-asked')),
});

/**
 * One call of a turn, as the journal has it: a call an earlier owner finished keeps its record
 * (it never runs again); a call it started without a recorded outcome runs again with the same
 * arguments and idempotency key when its tool's effect is `none` or `idempotent`, and is an
 * unknown outcome when it is `once`; any other call runs now (`run`).
 */
export function journaled(environment: ToolRunEnvironment, journal: TurnJournal | undefined, part: ToolCallPart, run: () => Promise<ToolCallRecord | PendingApproval>): Promise<CallOutcome> {
  if (!journal) return run();
  const recorded = journal.recorded(part.id);
  if (recorded) return Promise.resolve(recorded);
  const intent = journal.started(part.id);
  if (!intent) return run();
  const effect = environment.tools.get(intent.toolName)?.effect ?? 'once';
  if (effect === 'once') {
    const unknown: UnknownOutcome = { toolCallId: part.id, toolName: intent.toolName, arguments: intent.arguments, idempotencyKey: idempotencyKeyOf(environment.runId, part.id) };
    return Promise.resolve(unknown);
  }
  return runToolCall(decidedEnvironment(environment), { ...part, arguments: intent.arguments }, APPROVED);
}

const APPROVED = Object.freeze({ type: 'approved' as const });
