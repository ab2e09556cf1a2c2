/**
 * A provider written against `@keel/provider` alone: a small client of Anthropic's Messages API on
 * `fetch`, text only. Offline it talks to a local server that speaks the same wire format and
 * first answers 429 with a `retry-after`; the one `ProviderError` says `rate-limit` and the gate's
 * default rules retry. With ANTHROPIC_API_KEY set it talks to the real API.
 *
 *   pnpm --filter @keel/examples exec tsx --conditions=@keel/source src/custom-provider.ts
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Agent } from '@keel/core';
import { badResponse, type Message, mapVendorError, type ModelProviderV1, type ModelRequest, responseOf, shapeOf, type TokenUsage } from '@keel/provider';

/** Keel's messages as the Messages API reads them: text turns only (this small client has no tools). */
type WireMessage = { readonly role: 'user' | 'assistant'; readonly content: string };

function wireMessages(messages: readonly Message[]): WireMessage[] {
  return messages.flatMap((message): WireMessage[] => {
    if (message.role === 'user') return [{ role: 'user', content: message.content }];
    if (message.role === 'assistant') return [{ role: 'assistant', content: message.content.map((part) => (part.type === 'text' ? part.text : '')).join('') }];
    return [];
  });
}

function usageOf(body: { usage?: Record<string, unknown> }): TokenUsage {
  const count = (name: string): number => (typeof body.usage?.[name] === 'number' ? (body.usage[name] as number) : 0);
  return { inputTokens: count('input_tokens'), outputTokens: count('output_tokens'), cacheReadTokens: count('cache_read_input_tokens'), cacheWriteTokens: count('cache_creation_input_tokens') };
}

/** The provider: one `generate`, every failure mapped to the one `ProviderError` by the kit. */
export function messagesApi(baseURL: string, apiKey: string): ModelProviderV1 {
  const context = { provider: 'messages-api', label: 'Messages API', secrets: [apiKey] };
  return {
    specificationVersion: 'v1',
    name: 'messages-api',
    async generate(request: ModelRequest, { signal }) {
      try {
        const response = await fetch(`${baseURL}/v1/messages`, {
          method: 'POST',
          headers: { 'x-api-key': apiKey, 'anthropic-version': '2023-06-01', 'content-type': 'application/json' },
          body: JSON.stringify({ model: request.model, max_tokens: request.maxTokens ?? 512, ...(request.system ? { system: request.system } : {}), messages: wireMessages(request.messages) }),
          ...(signal === undefined ? {} : { signal }),
        });
        if (!response.ok) throw Object.assign(new Error(await response.text()), { status: response.status, headers: response.headers });
        const body = (await response.json()) as { content?: unknown; stop_reason?: unknown; model?: unknown; id?: unknown; usage?: Record<string, unknown> };
        if (!Array.isArray(body.content)) throw badResponse(context.provider, `content is ${shapeOf(body.content)}`, context.label);
        const text = body.content.map((block: { type?: unknown; text?: unknown }) => (block.type === 'text' && typeof block.text === 'string' ? block.text : '')).join('');
        return responseOf({ content: [{ type: 'text', text }], finishReason: body.stop_reason === 'max_tokens' ? 'length' : 'stop', usage: usageOf(body), modelId: body.model, responseId: body.id });
      } catch (error) {
        throw mapVendorError(error, { ...context, signal });
      }
    },
  };
}

/** A local server speaking the Messages wire format: a 429 with `retry-after: 0` first, then an answer. */
export async function localMessagesServer(): Promise<{ readonly url: string; readonly requests: number; close(): Promise<void> }> {
  let requests = 0;
  const server: Server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      requests++;
      if (requests === 1) {
        response.writeHead(429, { 'content-type': 'application/json', 'retry-after': '0' });
        response.end(JSON.stringify({ type: 'error', error: { type: 'rate_limit_error', message: 'slow down' } }));
        return;
      }
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ id: 'msg_local', type: 'message', role: 'assistant', model: 'claude-local', content: [{ type: 'text', text: 'Paris.' }], stop_reason: 'end_turn', usage: { input_tokens: 12, output_tokens: 2 } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    get requests() {
      return requests;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Runs one question through an agent on the provider; prints the answer and each attempt's error kind. */
export async function runCustomProvider(provider: ModelProviderV1, model: string, print: (line: string) => void = console.log): Promise<string> {
  // The default rules retry a rate limit after the server's `retry-after`.
  const agent = Agent.create({ provider, model }).build();
  const result = await agent.run('What is the capital of France? One word.');
  if (result.status !== 'complete') throw new Error('the run did not complete');
  print(`answer: ${result.text}`);
  print(`attempts: ${result.attempts.map((attempt) => attempt.errorKind).join(', ')}`);
  return result.text;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const key = process.env.ANTHROPIC_API_KEY;
  if (key) {
    await runCustomProvider(messagesApi('https://api.anthropic.com', key), process.env.ANTHROPIC_MODEL ?? 'claude-haiku-4-5');
  } else {
    const local = await localMessagesServer();
    try {
      await runCustomProvider(messagesApi(local.url, 'sk-local-example'), 'claude-local');
    } finally {
      await local.close();
    }
  }
}
