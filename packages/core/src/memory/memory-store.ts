import type { Message } from '@keel/provider';

/** The run a store is serving, passed to every call an agent makes on it. */
export interface MemoryRun {
  /** The run's id: stable for one run, so a store can tie a load to its append (and re-runs of one job share it when the caller sets it). */
  readonly runId: string;
  /** The run's signal: a store that waits (for a lease, a network call) should stop when it aborts. */
  readonly signal?: AbortSignal;
}

/**
 * Where conversations are kept between runs. Keel appends only the accepted exchange of a run,
 * never ephemeral messages. An agent run calls `load` once, then `append` once when it succeeds,
 * or `release` (when present) when it ends without appending (failure, abort).
 */
export interface MemoryStore {
  /** The conversation's messages, oldest first; empty for an unknown id. */
  load(conversationId: string, run?: MemoryRun): Promise<readonly Message[]>;
  /** Appends messages to the conversation. */
  append(conversationId: string, messages: readonly Message[], run?: MemoryRun): Promise<void>;
  /** Lets go of whatever `load` took for the run (a lease, say) when the run ends without appending. */
  release?(conversationId: string, run: MemoryRun): Promise<void>;
}

/** Freezes a value and everything in it (a message copy the store owns). */
function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

/**
 * A {@link MemoryStore} in process memory. `append` keeps a deep, frozen copy of each message once;
 * `load` hands out a new list of those frozen messages, so loading costs no copy of the
 * conversation's content and nobody can change what is kept.
 */
export class InMemoryStore implements MemoryStore {
  private readonly conversations = new Map<string, Message[]>();

  async load(conversationId: string): Promise<readonly Message[]> {
    return (this.conversations.get(conversationId) ?? []).slice();
  }

  async append(conversationId: string, messages: readonly Message[]): Promise<void> {
    if (messages.some((message) => message.ephemeral)) throw new TypeError('An ephemeral message cannot be stored in memory');
    const kept = this.conversations.get(conversationId) ?? [];
    for (const message of messages) kept.push(deepFreeze(structuredClone(message)));
    this.conversations.set(conversationId, kept);
  }
}
