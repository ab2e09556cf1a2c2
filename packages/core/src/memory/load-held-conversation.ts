import { sleep } from '@keel/reliability/internal';
import { ConversationBusyError } from '../errors/conversation-busy-error';
import type { Message } from '@keel/provider';
import type { ConversationLeases } from './conversation-leases';
import type { MemoryRun } from './memory-store';

/** What a store answers when asked for a conversation's lease: taken (its token) or held by another run. */
export type LeaseAnswer<Taken extends { readonly token: string }> = Taken | { readonly token?: undefined; /** What the other run's lease has left, in ms (0 or less when unknown). */ readonly leftMs: number };

/** A memory store's side of {@link loadHeldConversation}: its three calls to its server. */
export interface HeldLoadCalls<Taken extends { readonly token: string }> {
  /** Tries to take the conversation's lease for the run. */
  take(): Promise<LeaseAnswer<Taken>>;
  /** Reads the conversation once the lease is taken. */
  read(taken: Taken): Promise<Message[]>;
  /** Lets the lease just taken go (the read failed). */
  release(token: string): Promise<unknown>;
}

/** How {@link loadHeldConversation} waits for a conversation another run holds. */
export interface HeldLoadSettings {
  /** `serialize` waits for the conversation (at most `maxWaitMs`); `reject` fails at once. */
  readonly concurrency: 'serialize' | 'reject';
  readonly maxWaitMs: number;
}

const POLL_MS = 25;

/**
 * Loads a conversation for `run`, taking its lease first: under `serialize` it polls while another
 * run holds the conversation (at most `maxWaitMs`), under `reject` it fails at once with
 * {@link ConversationBusyError}. A conversation it cannot read lets the lease just taken go. One
 * loop for every store that leases conversations (Redis, PostgreSQL).
 */
export async function loadHeldConversation<Taken extends { readonly token: string }>(
  calls: HeldLoadCalls<Taken>,
  leases: ConversationLeases,
  { concurrency, maxWaitMs }: HeldLoadSettings,
  conversationId: string,
  run: MemoryRun,
): Promise<Message[]> {
  const waitUntil = Date.now() + maxWaitMs;
  for (;;) {
    const answer = await calls.take();
    if (answer.token !== undefined) {
      leases.hold(conversationId, run.runId, answer.token);
      try {
        return await calls.read(answer as Taken);
      } catch (error) {
        // Unreadable (or the read failed): the lease just taken is let go at once, not left to expire.
        leases.stopRenewing(conversationId, run.runId);
        await calls.release(answer.token).catch(() => undefined);
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
    const leftMs = 'leftMs' in answer ? answer.leftMs : 0;
    await sleep(Math.min(remaining, Math.max(1, Math.min(POLL_MS, leftMs > 0 ? leftMs : POLL_MS)) + Math.random() * 5), run.signal);
  }
}
