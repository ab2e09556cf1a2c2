import { type ConversationLeases, conversationLeases } from '@keel/core/internal';
import { boundedCall } from '../redis/bounded-call';
import { conversationKeys } from './conversation-keys';
import { renewScript } from './memory-scripts';
import type { MemorySettings } from './memory-settings';

/** Keeps the leases of a Redis memory store's runs (core's leases, renewed by the renew script); a token is `"<token> <run id>"`, as the lease key holds it. */
export function redisLeases(settings: MemorySettings): ConversationLeases {
  const { redis, prefix, leaseMs, fenceTtlMs, timeoutMs } = settings;
  return conversationLeases(leaseMs, async (conversationId, _runId, holder) => {
    const { lease, fence } = conversationKeys(prefix, conversationId);
    const renewed = await boundedCall(() => renewScript.run(redis, [lease, fence], [holder, leaseMs, fenceTtlMs]), { operation: 'memory lease renewal', timeoutMs });
    return renewed === 1;
  });
}
