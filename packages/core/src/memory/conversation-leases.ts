/** The lease a run holds on a conversation in this process. */
export interface HeldLease {
  /** What the store took the lease with and checks an append or a release against. */
  readonly token: string;
}

/** The leases this process holds, each renewed while its run lives. */
export interface ConversationLeases {
  /** Keeps renewing the lease run `runId` took on the conversation with `token` (replacing an earlier one of that run). */
  hold(conversationId: string, runId: string, token: string): void;
  /** Stops renewing the run's lease and forgets it; returns it, when there was one. */
  stopRenewing(conversationId: string, runId: string): HeldLease | undefined;
}

/** Renews a held lease in the store: `false` once another run has taken the conversation. */
export type RenewLease = (conversationId: string, runId: string, token: string) => Promise<boolean>;

interface Renewal extends HeldLease {
  timer: ReturnType<typeof setTimeout> | undefined;
}

/**
 * Keeps the leases of a memory store's runs (Redis, PostgreSQL): each renewed every third of
 * `leaseMs` until it is let go. A lease another run has taken is no longer renewed, but is kept, so
 * the run's append is refused by its token.
 */
export function conversationLeases(leaseMs: number, renew: RenewLease): ConversationLeases {
  const held = new Map<string, Renewal>();
  // Injective whatever the ids hold (a separator character could be part of either).
  const heldKey = (conversationId: string, runId: string) => JSON.stringify([conversationId, runId]);
  const period = Math.max(50, Math.floor(leaseMs / 3));

  const stopRenewing = (conversationId: string, runId: string): HeldLease | undefined => {
    const lease = held.get(heldKey(conversationId, runId));
    if (!lease) return undefined;
    clearTimeout(lease.timer);
    held.delete(heldKey(conversationId, runId));
    return { token: lease.token };
  };

  const hold = (conversationId: string, runId: string, token: string): void => {
    // A second load of the same run replaces its lease: the earlier renewal stops.
    stopRenewing(conversationId, runId);
    const lease: Renewal = { token, timer: undefined };
    const current = () => held.get(heldKey(conversationId, runId)) === lease;
    const schedule = (): void => {
      lease.timer = setTimeout(() => {
        renew(conversationId, runId, token).then(
          (renewed) => {
            if (renewed && current()) schedule();
          },
          () => {
            if (current()) schedule();
          },
        );
      }, period);
      (lease.timer as { unref?: () => void } | undefined)?.unref?.();
    };
    held.set(heldKey(conversationId, runId), lease);
    schedule();
  };

  return { hold, stopRenewing };
}
