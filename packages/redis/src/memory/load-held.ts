import type { MemoryStore, Message } from '@keel/core';
import { type ConversationLeases, type LeaseAnswer, loadHeldConversation } from '@keel/core/internal';
import { boundedCall } from '../redis/bounded-call';
import { conversationKeys, scriptKeys } from './conversation-keys';
import { loadScript, releaseScript } from './memory-scripts';
import type { MemorySettings } from './memory-settings';
import { parseExchanges, storeError } from './stored-exchanges';

/** A lease the load script took, with the conversation it read in the same call. */
type Taken = { readonly token: string; readonly exchanges: string[] };

/** The run a store serves (core's `MemoryRun`, as the `MemoryStore` hooks pass it). */
export type MemoryRun = NonNullable<Parameters<MemoryStore['load']>[1]>;

/**
 * Loads a conversation for `run` under its lease (core's `loadHeldConversation`): one script
 * takes the lease and reads the conversation, or answers how long the other holder's lease has left.
 */
export function loadHeld(settings: MemorySettings, leases: ConversationLeases, conversationId: string, run: MemoryRun): Promise<Message[]> {
  const { redis, prefix, leaseMs, timeoutMs, fenceTtlMs } = settings;
  const keys = conversationKeys(prefix, conversationId);
  const take = async (): Promise<LeaseAnswer<Taken>> => {
    const answer = (await boundedCall(() => loadScript.run(redis, scriptKeys(keys), [run.runId, leaseMs, fenceTtlMs]), {
      operation: 'memory load',
      timeoutMs,
      signal: run.signal,
    }).catch(storeError('load'))) as [string, string | number, ...string[]];
    return answer[0] === 'ok' ? { token: `${answer[1]} ${run.runId}`, exchanges: answer.slice(2) as string[] } : { leftMs: Number(answer[1]) };
  };
  return loadHeldConversation<Taken>(
    {
      take,
      read: async ({ exchanges }) => parseExchanges(keys, exchanges),
      release: (holder) => boundedCall(() => releaseScript.run(redis, [keys.lease], [holder]), { operation: 'memory release', timeoutMs }),
    },
    leases,
    settings,
    conversationId,
    run,
  );
}
