import type { UIMessageChunk, UIMessageStreamResponseOptions } from './ui-message-chunk';

/** The headers of a UI message stream response (server-sent events, the AI SDK's protocol marker, no proxy buffering). */
export const UI_MESSAGE_STREAM_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'content-type': 'text/event-stream',
  'cache-control': 'no-cache',
  connection: 'keep-alive',
  'x-vercel-ai-ui-message-stream': 'v1',
  'x-accel-buffering': 'no',
});

/**
 * A readable stream over an iterator, pulled as the reader reads. Cancelling the stream (a client
 * that went away) calls `cancel` (the run's), then returns the iterator without waiting for it.
 */
export function readableOf<T>(iterator: AsyncIterator<T>, cancel: (reason?: unknown) => void): ReadableStream<T> {
  return new ReadableStream<T>({
    async pull(controller) {
      try {
        const next = await iterator.next();
        if (next.done) controller.close();
        else controller.enqueue(next.value);
      } catch (error) {
        controller.error(error);
      }
    },
    cancel(reason) {
      cancel(reason);
      // A read may be pending; the cancelled run ends it, so returning must not wait on it.
      iterator.return?.().catch(() => undefined);
    },
  });
}

async function* serverSentEvents(chunks: AsyncIterator<UIMessageChunk<unknown>>): AsyncGenerator<Uint8Array> {
  const encoder = new TextEncoder();
  try {
    for (let next = await chunks.next(); !next.done; next = await chunks.next()) yield encoder.encode(`data: ${JSON.stringify(next.value)}\n\n`);
    yield encoder.encode('data: [DONE]\n\n');
  } finally {
    await chunks.return?.();
  }
}

/** The chunks as an HTTP response: server-sent events (`data: <json>` each, then `data: [DONE]`) with the UI stream's headers. */
export function uiMessageStreamResponse(
  chunks: AsyncIterator<UIMessageChunk<unknown>>,
  cancel: (reason?: unknown) => void,
  options: UIMessageStreamResponseOptions = {},
): Response {
  const given = options.headers ?? {};
  const names = new Set(Object.keys(given).map((name) => name.toLowerCase()));
  const headers: Record<string, string> = { ...given };
  for (const [name, value] of Object.entries(UI_MESSAGE_STREAM_HEADERS)) if (!names.has(name)) headers[name] = value;
  return new Response(readableOf(serverSentEvents(chunks), cancel), {
    headers,
    ...(options.status === undefined ? {} : { status: options.status }),
    ...(options.statusText === undefined ? {} : { statusText: options.statusText }),
  });
}
