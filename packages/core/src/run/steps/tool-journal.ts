import type { ToolCallPart } from '../../model/message';
import type { PendingApproval } from '../../tools/pending-approval';
import { idempotencyKeyOf, runToolCall, type ToolCallJournal, type ToolRunEnvironment } from '../../tools/run-tool-call';
import type { ToolCallRecord } from '../../tools/tool-result';
import type { UnknownOutcome } from '../../tools/unknown-outcome';
import type { RunContext } from '../state/run-context';
import { saveCheckpoint } from '../state/run-journal';
import type { RunState, ToolIntent, ToolTurn } from '../state/run-state';

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
 * The journal of a turn in a durable run (none otherwise): each intent and outcome is a
 * checkpoint of the run's state with the turn's record so far. Writes go out in the order they
 * were made, each with everything recorded before it.
 */
export function turnJournal(context: RunContext, state: RunState, turn: ToolTurn): TurnJournal | undefined {
  if (!context.journal) return undefined;
  const intents = [...(turn.journal?.intents ?? [])];
  const outcomes = [...(turn.journal?.outcomes ?? [])];
  const recorded = new Map(outcomes.map((record) => [record.id, record]));
  const started = new Map(intents.map((intent) => [intent.id, intent]));
  const save = () => saveCheckpoint(context, { ...state, next: { type: 'call-tools', turn: { ...turn, journal: { intents: intents.slice(), outcomes: outcomes.slice() } } } });
  return {
    recorded: (id) => recorded.get(id),
    started: (id) => started.get(id),
    intent: (intent) => {
      intents.push(intent);
      return save();
    },
    outcome: (record) => {
      outcomes.push(record);
      return save();
    },
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
  const effect = environment.tools.get(intent.name)?.effect ?? 'once';
  if (effect === 'once') {
    const unknown: UnknownOutcome = { toolCallId: part.id, toolName: intent.name, arguments: intent.arguments, idempotencyKey: idempotencyKeyOf(environment.runId, part.id) };
    return Promise.resolve(unknown);
  }
  return runToolCall(decidedEnvironment(environment), { ...part, arguments: intent.arguments }, APPROVED);
}

const APPROVED = Object.freeze({ type: 'approved' as const });
