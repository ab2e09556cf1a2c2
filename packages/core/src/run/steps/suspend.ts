import type { RunResult } from '../../agent/run-result';
import type { RunContext } from '../state/run-context';
import { sealState } from '../state/run-state-snapshot';
import type { RunState, StepOutcome } from '../state/run-state';
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
    ...finished.map((record) => [record.id, record.arguments] as const),
    ...pending.map((call) => [call.toolCallId, call.arguments] as const),
    ...unknown.map((call) => [call.toolCallId, call.arguments] as const),
  ]);
  const suspended = await sealState(
    {
      agent: await sealing.agent(),
      ...(state.tenant === undefined ? {} : { tenant: state.tenant }),
      expiresAt: Date.now() + sealing.ttlMs,
      suspensionId: globalThis.crypto.randomUUID(),
      runId: state.runId,
      ...(state.conversationId === undefined ? {} : { conversationId: state.conversationId }),
      ...(state.system === undefined ? {} : { system: state.system }),
      startedAt: state.startedAt,
      suspendedAt: Date.now(),
      elapsedMs: state.elapsedMs + performance.now() - context.started,
      step,
      messages: state.messages,
      steps: state.steps,
      toolCalls: state.toolCalls,
      attempts: context.ledger.attempts,
      usage: context.ledger.snapshot(),
      // A resumed run sends what it sent before it suspended, not its whole history again.
      ...(state.compaction === undefined ? {} : { compaction: state.compaction }),
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
    },
    sealing.signer,
  );
  const ended: RunState = { ...state, toolCalls: [...state.toolCalls, ...finished] };
  releaseMemory(context);
  if (context.listens('run.suspended')) {
    const waiting = [...pending, ...unknown];
    context.emit('run.suspended', {
      suspensionId: suspended.suspensionId,
      toolCallIds: waiting.map((call) => call.toolCallId).join(', '),
      tools: waiting.map((call) => call.toolName).join(', '),
      pending: pending.length,
      ...(unknown.length === 0 ? {} : { unknownOutcomes: unknown.length }),
    });
  }
  const result = suspendedResultOf(context, ended, turn.finishReason, suspended);
  runEnded(context, ended, 'suspended', result);
  return { type: 'done', result };
}
