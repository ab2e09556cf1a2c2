import type { MemoryStore, Message } from '@keel/core';
import { sleep } from '@keel/reliability/internal';
import { ConversationBusyError } from '@keel/core/internal';
import { boundedCall } from '../redis/bounded-call';
import { conversationKeys, scriptKeys } from './conversation-keys';
import type { ConversationLeases } from './conversation-leases';
import { loadScript, releaseScript } from './memory-scripts';
import type { MemorySettings } from './memory-settings';
import { parseExchanges, storeError } from './stored-exchanges';

/** The run a store serves (core's `MemoryRun`, as the `MemoryStore` hooks pass it). */
export type MemoryRun = NonNullable<Parameters<MemoryStore['load']>[1]>;

const POLL_MS = 25;

/**
 * Loads a conversation for `run`, taking its lease: under `serialize` it polls while another run
 * holds the conversation (at most `maxWaitMs`), under `reject` it fails at once with
 * {@link ConversationBusyError}. A conversation it cannot read lets the lease just taken go.
 */
export async function loadHeld(settings: MemorySettings, leases: ConversationLeases, conversationId: string, run: MemoryRun): Promise<Message[]> {
  const { redis, prefix, concurrency, leaseMs, maxWaitMs, timeoutMs, fenceTtlMs } = settings;
  const keys = conversationKeys(prefix, conversationId);
  const waitUntil = Date.now() + maxWaitMs;
  for (;;) {
    const answer = (await boundedCall(() => loadScript.run(redis, scriptKeys(keys), [run.runId, leaseMs, fenceTtlMs]), {
      operation: 'memory load',
      timeoutMs,
      signal: run.signal,
    }).catch(storeError('load'))) as [string, string | number, ...string[]];
    if (answer[0] === 'ok') {
      const holder = `${answer[1]} ${run.runId}`;
      leases.hold(conversationId, run.runId, holder);
      try {
        return parseExchanges(keys, answer.slice(2) as string[]);
      } catch (error) {
        // Unreadable: the lease just taken is let go at once, not left to expire.
        leases.stopRenewing(conversationId, run.runId);
        await boundedCall(() => releaseScript.run(redis, [keys.lease], [holder]), { operation: 'memory release', timeoutMs }).catch(() => undefined);
        throw error;
      }
    }
    if (concurrency === 'reject') {
      throw new ConversationBusyError({ conversationId, message: `Conversation "${conversationId}" is in use by another run` });
    }
    const remaining = waitUntil - Date.now();
    if (remaining <= 0) {
      throw new ConversationBusyError({ conversationId, message: `Conversation "${conversationId}" stayed in use by another run for ${maxWaitMs} ms` });
    }
    // Poll: the holder's append or release frees it at once; a crashed holder's lease expires.
    const leaseLeft = Number(answer[1]);
    await sleep(Math.min(remaining, Math.max(1, Math.min(POLL_MS, leaseLeft > 0 ? leaseLeft : POLL_MS)) + Math.random() * 5), run.signal);
  }
}
