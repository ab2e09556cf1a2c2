import { conversationTag } from '../memory/conversation-keys';

/** The Redis keys of one run; all three share one hash tag, so one cluster slot. */
export interface RunKeys {
  /** Counter handing out owners' fences. */
  readonly fence: string;
  /** List of the journal's entries as JSON texts, oldest first. */
  readonly entries: string;
  /** Hash: agentId, status, and tenant when the run has one. */
  readonly meta: string;
}

/** The keys of run `runId` under `prefix` (already normalised); any id is safe on Redis Cluster. */
export function runKeys(prefix: string, runId: string): RunKeys {
  const base = `${prefix}run:{${conversationTag(runId)}}`;
  return { fence: `${base}:fence`, entries: `${base}:entries`, meta: `${base}:meta` };
}

/** The key of a one-time claim under `prefix` (already normalised). */
export function claimKey(prefix: string, key: string): string {
  return `${prefix}claim:{${conversationTag(key)}}`;
}
