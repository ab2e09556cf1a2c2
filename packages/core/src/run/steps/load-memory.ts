import { KeelError } from '@keel/reliability';
import { raceSignal } from '@keel/reliability/internal';
import type { RunResult } from '../../contracts/run-result';
import { MemoryStoreError } from '../../errors/memory-store-error';
import type { MemoryRun } from '../../memory/memory-store';
import { checkMessages } from '../state/check-messages';
import type { RunContext } from '../state/run-context';
import type { RunState, StepOutcome } from '../../contracts/run-state';

/**
 * Rethrows a store's failure typed: Keel errors (an abort, a busy conversation) as they are,
 * anything else (a plain error, a hostile thrown value) as a {@link MemoryStoreError} with it as cause.
 */
export const storeFailure =
  (operation: 'load' | 'append') =>
  (error: unknown): never => {
    if (KeelError.isKeelError(error)) throw error;
    throw new MemoryStoreError({ operation, cause: error });
  };

const memoryRun = (context: RunContext): MemoryRun => (context.signal ? { runId: context.runId, signal: context.signal } : { runId: context.runId });

/**
 * The step `load-memory` (runs with memory only): the conversation memory holds, without its
 * ephemeral messages, goes before the run's own messages in every request. The store is raced
 * against the signal: a store that never answers cannot hold the run.
 */
export async function loadMemory(context: RunContext, state: RunState): Promise<StepOutcome<RunResult<unknown>>> {
  const next = state.next;
  if (next.type !== 'load-memory') throw new TypeError(`the load-memory step cannot take a ${next.type} step`);
  const memory = context.config.memory;
  const conversationId = context.conversationId;
  if (!memory || conversationId === undefined) return { type: 'next', state: { ...state, next: next.then } };
  try {
    const loaded = await raceSignal(Promise.resolve().then(() => memory.load(conversationId, memoryRun(context))), context.signal).catch(storeFailure('load'));
    const history = checkMessages(loaded, 'memory.load').filter((message) => !message.ephemeral);
    return { type: 'next', state: { ...state, history, next: next.then } };
  } catch (error) {
    // A load that failed (or was aborted) may have taken the conversation all the same.
    releaseMemory(context, { ...state, history: [] });
    throw error;
  }
}

/**
 * Lets go of what memory's `load` took when the run ends without appending (a failure, an abort, a
 * suspension): `state` is the run's last state, whose `history` says memory was loaded.
 */
export function releaseMemory(context: RunContext, state: RunState): void {
  const memory = context.config.memory;
  const conversationId = context.conversationId;
  if (state.history === undefined || !memory?.release || conversationId === undefined) return;
  // Not awaited: a store that cannot release (its backend is down, say) must neither hold the run nor hide why it failed.
  const run = memoryRun(context);
  Promise.resolve()
    .then(() => memory.release?.(conversationId, run))
    .catch(() => undefined);
}
