import type { RunResult } from '../../contracts/run-result';
import type { RunContext } from '../state/run-context';
import { sealState } from '../state/run-state-snapshot';
import type { JournalSuspension } from '../journal/journal-entry';
import { suspendedState } from '../journal/suspended-state';
import type { RunState, StepOutcome } from '../../contracts/run-state';
import { runEnded, suspendedResultOf } from './end';
import { releaseMemory } from './load-memory';

/**
 * The step `suspend`: calls wait for approval, or for a person to settle an outcome a crash left
 * unknown. The run's state is sealed (signed, naming the agent) with what it needs to go on,
 * memory receives nothing, and the result says `suspended`.
 */
export async function suspend(context: RunContext, state: RunState): Promise<StepOutcome<RunResult<unknown>>> {
  const next = state.next;
  if (next.type !== 'suspend') throw new TypeError(`the suspend step cannot take a ${next.type} step`);
  const { turn, finished, pending, unknown, modelCalls, durationMs } = next.suspending;
  const step = state.step;
  const sink = context.sink;
  for (const record of finished) sink?.push({ type: 'tool-result', step, record });
  const sealing = context.sealing;
  if (!sealing) throw new TypeError('a run that can suspend needs a state signer');
  const argumentsOf = new Map<string, unknown>([
    ...finished.map((record) => [record.toolCallId, record.arguments] as const),
    ...pending.map((call) => [call.toolCallId, call.arguments] as const),
    ...unknown.map((call) => [call.toolCallId, call.arguments] as const),
  ]);
  const suspension: JournalSuspension = {
    agent: await sealing.agent(),
    expiresAt: Date.now() + sealing.ttlMs,
    suspensionId: globalThis.crypto.randomUUID(),
    suspendedAt: Date.now(),
    turn: {
      assistant: { role: 'assistant', content: turn.content.map((part) => (part.type === 'tool-call' ? { type: 'tool-call', id: part.id, name: part.name, arguments: argumentsOf.get(part.id) } : part)) },
      text: turn.text,
      finishReason: turn.finishReason,
      finished,
      modelCalls,
      durationMs,
    },
    pending,
    ...(unknown.length === 0 ? {} : { unknown }),
    usage: context.ledger.snapshot(),
  };
  // The journal's entry first: the sealed state names where the journal stands after it, so the
  // resumed run's entries follow it (the state itself is the journal's fold, see `suspendedState`).
  const elapsedMs = Math.round(state.elapsedMs + performance.now() - context.started);
  const { journal } = context;
  if (journal) await journal.write([{ type: 'suspension', step, suspension }], elapsedMs, context.ledger.attempts);
  const suspended = await sealState(suspendedState({ ...state, elapsedMs, attempts: context.ledger.attempts }, suspension, journal?.head), sealing.signer);
  const ended: RunState = { ...state, toolCalls: [...state.toolCalls, ...finished] };
  releaseMemory(context, state);
  if (context.listens('run.suspended')) {
    const waiting = [...pending, ...unknown];
    context.emit('run.suspended', {
      suspensionId: suspended.suspensionId,
      toolCallIds: waiting.map((call) => call.toolCallId).join(', '),
      toolNames: waiting.map((call) => call.toolName).join(', '),
      pending: pending.length,
      ...(unknown.length === 0 ? {} : { unknownOutcomes: unknown.length }),
    });
  }
  const result = suspendedResultOf(context, ended, turn.finishReason, suspended);
  runEnded(context, ended, 'suspended', result);
  return { type: 'done', result, state: ended };
}
