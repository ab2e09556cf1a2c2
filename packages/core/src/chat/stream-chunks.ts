/** What a read of a kept stream gives: the chunks from the asked position on, and whether the stream has ended. */
export interface StreamChunks {
  readonly chunks: readonly string[];
  /** The stream has ended (or is not kept): no chunk comes after these. */
  readonly done: boolean;
}

/**
 * Where a chat route keeps the chunks of its streams (the UI message stream's server-sent
 * events, as text), so that a client that reconnects (`useChat({ resume: true })`, after a
 * reload) reads the rest of the same run's stream instead of starting the run again. Each chat
 * has at most one active stream. Share it between the server's instances (Redis, with a list
 * per stream and a key per chat) when a reconnect may reach another one.
 */
export interface StreamChunkStore {
  /** Makes `streamId` the active stream of `chatId`, kept until `expiresAt` (epoch milliseconds). */
  start(chatId: string, streamId: string, expiresAt: number): unknown;
  /** Appends one chunk to the stream. */
  append(streamId: string, chunk: string): unknown;
  /** Ends the stream: readers get its last chunks, then `done`. */
  finish(streamId: string): unknown;
  /** The active stream of `chatId` (`undefined` when none is kept, or it expired). */
  activeStream(chatId: string): unknown;
  /**
   * The stream's chunks from position `from` (0 is the first) on. When there is none yet and the
   * stream has not ended, waits up to `waitMs` for one (an empty, not-done answer after that is
   * fine: the reader asks again). A stream not kept is `done` with no chunks.
   */
  read(streamId: string, from: number, waitMs: number): StreamChunks | Promise<StreamChunks>;
}

interface KeptStream {
  readonly chunks: string[];
  done: boolean;
  readonly expiresAt: number;
  readonly waiters: Set<() => void>;
}

/** A {@link StreamChunkStore} in this process's memory: for one server, tests and examples. Streams are dropped once expired. */
export function memoryStreamChunks(): StreamChunkStore {
  const streams = new Map<string, KeptStream>();
  const chats = new Map<string, { readonly streamId: string; readonly expiresAt: number }>();
  const live = (streamId: string) => {
    const kept = streams.get(streamId);
    return kept && kept.expiresAt > Date.now() ? kept : undefined;
  };
  const wake = (kept: KeptStream) => {
    for (const waiter of kept.waiters) waiter();
    kept.waiters.clear();
  };
  return {
    start(chatId, streamId, expiresAt) {
      const now = Date.now();
      for (const [id, kept] of streams) if (kept.expiresAt <= now) streams.delete(id);
      for (const [id, chat] of chats) if (chat.expiresAt <= now) chats.delete(id);
      streams.set(streamId, { chunks: [], done: false, expiresAt, waiters: new Set() });
      chats.set(chatId, { streamId, expiresAt });
    },
    append(streamId, chunk) {
      const kept = live(streamId);
      if (!kept || kept.done) return;
      kept.chunks.push(chunk);
      wake(kept);
    },
    finish(streamId) {
      const kept = live(streamId);
      if (!kept) return;
      kept.done = true;
      wake(kept);
    },
    activeStream(chatId) {
      const chat = chats.get(chatId);
      return chat && chat.expiresAt > Date.now() ? chat.streamId : undefined;
    },
    async read(streamId, from, waitMs) {
      const kept = live(streamId);
      if (!kept) return { chunks: [], done: true };
      if (kept.chunks.length <= from && !kept.done) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(() => {
            kept.waiters.delete(resolve);
            resolve();
          }, waitMs);
          kept.waiters.add(() => {
            clearTimeout(timer);
            resolve();
          });
        });
      }
      return { chunks: kept.chunks.slice(from), done: kept.done };
    },
  };
}
