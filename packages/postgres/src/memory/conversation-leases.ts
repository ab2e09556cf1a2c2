import type { StoreConnection } from '../postgres/store-connection';
import { renewSql } from './memory-statements';

/** The lease a run holds on a conversation in this process. */
export interface HeldLease {
  /** The token the lease was taken with (the conversation's fencing counter then). */
  readonly token: string;
  readonly renewal: ReturnType<typeof setInterval>;
}

/** The leases this process holds, each renewed while its run lives. */
export interface ConversationLeases {
  /** Keeps renewing the lease run `runId` took on the conversation (its stored keys) with `token`, replacing an earlier one of that run. */
  hold(conversationId: string, runId: string, keys: { conversation: string; run: string }, token: string): void;
  /** Stops renewing the run's lease and forgets it; returns it, when there was one. */
  stopRenewing(conversationId: string, runId: string): HeldLease | undefined;
}

/** Keeps the leases of a PostgreSQL memory store's runs: each renewed every third of `leaseMs` until it is let go or taken. */
export function conversationLeases(connection: StoreConnection, leaseMs: number): ConversationLeases {
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

  const hold: ConversationLeases['hold'] = (conversationId, runId, keys, token) => {
    // A second load of the same run replaces its lease: the earlier renewal stops.
    stopRenewing(conversationId, runId);
    const renewal = setInterval(() => {
      connection.query('memory lease renewal', renewSql(connection.schema), [keys.conversation, token, keys.run, leaseMs]).then(
        ({ rows }) => {
          // Taken by another run (a newer token): stop renewing but keep the token, so the append is refused.
          if (rows.length === 0) clearInterval(renewal);
        },
        () => undefined,
      );
    }, Math.max(50, Math.floor(leaseMs / 3)));
    renewal.unref?.();
    held.set(heldKey(conversationId, runId), { token, renewal });
  };

  return { hold, stopRenewing };
}
