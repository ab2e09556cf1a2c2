import { describe, expect, it } from 'vitest';
import { keepChatStream, reconnectChatStream } from './resumable-stream';
import { memoryStreamChunks } from './stream-chunks';

/** A UI stream response written chunk by chunk, each when `release` is called. */
function slowResponse(chunks: readonly string[]) {
  const encoder = new TextEncoder();
  let next = 0;
  const gates: (() => void)[] = [];
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      await new Promise<void>((resolve) => gates.push(resolve));
      if (next === chunks.length) return controller.close();
      controller.enqueue(encoder.encode(chunks[next++] as string));
    },
  });
  const release = async () => {
    while (gates.length === 0) await new Promise((resolve) => setTimeout(resolve, 1));
    gates.shift()?.();
    await new Promise((resolve) => setTimeout(resolve, 5));
  };
  return { response: new Response(body, { headers: { 'content-type': 'text/event-stream', 'x-vercel-ai-ui-message-stream': 'v1' } }), release };
}

describe('streams kept for a client that reconnects', () => {
  it('reads the whole stream again from its first chunk, follows it to its end, then there is nothing to resume', async () => {
    const store = memoryStreamChunks();
    const { response, release } = slowResponse(['data: a\n\n', 'data: b\n\n', 'data: [DONE]\n\n']);
    const kept = await keepChatStream(store, 'chat-1', response);
    expect(kept.headers.get('x-vercel-ai-ui-message-stream')).toBe('v1');
    await release();
    // The first client goes away: the stream goes on being kept.
    await kept.body?.cancel();
    const again = await reconnectChatStream(store, 'chat-1');
    expect(again.status).toBe(200);
    expect(again.headers.get('content-type')).toBe('text/event-stream');
    const text = again.text();
    await release();
    await release();
    await release();
    await expect(text).resolves.toBe('data: a\n\ndata: b\n\ndata: [DONE]\n\n');
    expect((await reconnectChatStream(store, 'chat-1')).status).toBe(204);
  });

  it('answers 204 for a chat with no stream, and a later stream of the chat replaces the earlier', async () => {
    const store = memoryStreamChunks();
    expect((await reconnectChatStream(store, 'chat-2')).status).toBe(204);
    await keepChatStream(store, 'chat-2', new Response(null), { streamId: 's-1' });
    await store.start('chat-2', 's-2', Date.now() + 1000);
    expect(store.activeStream('chat-2')).toBe('s-2');
  });

  it('drops an expired stream: a reader gets nothing more', async () => {
    const store = memoryStreamChunks();
    await store.start('chat-3', 's-3', Date.now() - 1);
    expect(store.activeStream('chat-3')).toBeUndefined();
    await expect(store.read('s-3', 0, 10)).resolves.toEqual({ chunks: [], done: true });
  });
});
