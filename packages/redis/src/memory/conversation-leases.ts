import { boundedCall } from '../redis/bounded-call';
import { conversationKeys } from './conversation-keys';
import { renewScript } from './memory-scripts';
import type { MemorySettings } from './memory-settings';

/** The lease a run holds on a conversation in this process. */
export interface HeldLease {
  /** `"<token> <run id>"`, as the lease key holds it. */
  readonly holder: string;
  readonly renewal: ReturnType<typeof setInterval>;
}

/** The leases this process holds, each renewed while its run lives. */
export interface ConversationLeases {
  /** Keeps renewing the lease run `runId` took on the conversation as `holder` (replacing an earlier one of that run). */
  hold(conversationId: string, runId: string, holder: string): void;
  /** Stops renewing the run's lease and forgets it; returns it, when there was one. */
  stopRenewing(conversationId: string, runId: string): HeldLease | undefined;
}

/** Keeps the leases of a Redis memory store's runs: each renewed every third of `leaseMs` until it is let go or taken. */
export function conversationLeases(settings: MemorySettings): ConversationLeases {
  const { redis, prefix, leaseMs, fenceTtlMs, timeoutMs } = settings;
  const held = new Map<string, HeldLease>();
  // Injective whatever the ids hold (a separator character could be part of either).
  const heldKey = (conversationId: string, runId: string) => JSON.stringify([conversationId, runId]);

  const stopRenewing = (conversationId: string, runId: string): HeldLease | undefined => {
    const lease = held.get(heldKey(conversationId, runId));
    if (lease) {
      clearInterval(lease.renewal);
      held.delete(heldKey(conversationId, runId));
    }
    return lease;
  };

  const hold = (conversationId: string, runId: string, holder: string): void => {
    // A second load of the same run replaces its lease: the earlier renewal stops.
    stopRenewing(conversationId, runId);
    const { lease, fence } = conversationKeys(prefix, conversationId);
    const renewal = setInterval(() => {
      boundedCall(() => renewScript.run(redis, [lease, fence], [holder, leaseMs, fenceTtlMs]), { operation: 'memory lease renewal', timeoutMs }).then(
        (renewed) => {
          // Taken by another run (a newer token): stop renewing but keep the holder, so the append is refused.
          if (renewed !== 1) clearInterval(renewal);
        },
        () => undefined,
      );
    }, Math.max(50, Math.floor(leaseMs / 3)));
    renewal.unref?.();
    held.set(heldKey(conversationId, runId), { holder, renewal });
  };

  return { hold, stopRenewing };
}
