import { UI_MESSAGE_STREAM_HEADERS } from '../agent/ui-message-stream-response';
import type { StreamChunkStore } from './stream-chunks';

/** How long a kept stream can be reconnected to: an hour. */
const KEPT_FOR_MS = 60 * 60 * 1000;

/** Options of {@link keepChatStream}. */
export interface KeepChatStreamOptions {
  /** How long the stream can be reconnected to, in milliseconds. Default an hour. */
  readonly keepForMs?: number;
  /** The stream's id. Default a random UUID. */
  readonly streamId?: string;
}

/** A response body that reads the kept stream from its first chunk, and follows it until it ends. */
function keptBody(store: StreamChunkStore, streamId: string): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let from = 0;
  let cancelled = false;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      while (!cancelled) {
        const { chunks, done } = await store.read(streamId, from, 1000);
        if (cancelled) return;
        if (chunks.length > 0) {
          from += chunks.length;
          return controller.enqueue(encoder.encode(chunks.join('')));
        }
        if (done) return controller.close();
      }
    },
    cancel() {
      cancelled = true;
    },
  });
}

/** Reads the response's body into the store, to its end, whoever reads it. */
async function pump(store: StreamChunkStore, streamId: string, body: ReadableStream<Uint8Array> | null): Promise<void> {
  const decoder = new TextDecoder();
  try {
    if (body) for await (const bytes of body as unknown as AsyncIterable<Uint8Array>) {
      const text = decoder.decode(bytes, { stream: true });
      if (text !== '') await store.append(streamId, text);
    }
    const rest = decoder.decode();
    if (rest !== '') await store.append(streamId, rest);
  } finally {
    await store.finish(streamId);
  }
}

/**
 * Keeps a chat's UI message stream response in `store` as the active stream of `chatId`, and
 * answers with a response that reads it from the store. The run goes on to its end when the
 * client goes away (a reload), so give its run no `request.signal`: a client that reconnects
 * ({@link reconnectChatStream}) reads the same run's stream, from its first chunk to its end,
 * and nothing runs twice.
 */
export async function keepChatStream(store: StreamChunkStore, chatId: string, response: Response, options: KeepChatStreamOptions = {}): Promise<Response> {
  const streamId = options.streamId ?? crypto.randomUUID();
  await store.start(chatId, streamId, Date.now() + (options.keepForMs ?? KEPT_FOR_MS));
  void pump(store, streamId, response.body).catch(() => undefined);
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => void (headers[name] = value));
  return new Response(keptBody(store, streamId), { status: response.status, headers });
}

/**
 * The answer to a client that reconnects to a chat (`useChat({ resume: true })` sends a GET to
 * `<api>/<chatId>/stream`): the chat's active stream from its first chunk (the client rebuilds
 * the answer from it, as the AI SDK's resumable streams replay), followed to its end, or
 * `204 No Content` when none is running (none kept, or it has ended). Nothing runs.
 */
export async function reconnectChatStream(store: StreamChunkStore, chatId: string): Promise<Response> {
  const streamId = await store.activeStream(chatId);
  if (typeof streamId !== 'string') return new Response(null, { status: 204 });
  // A stream that has ended is the conversation the client keeps, not one to resume.
  if ((await store.read(streamId, Number.MAX_SAFE_INTEGER, 0)).done) return new Response(null, { status: 204 });
  return new Response(keptBody(store, streamId), { headers: { ...UI_MESSAGE_STREAM_HEADERS } });
}
