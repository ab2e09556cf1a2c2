import { pathToFileURL } from 'node:url';
import type { Agent } from '@keel/core';
import { DefaultChatTransport, getToolOrDynamicToolName, isToolUIPart, readUIMessageStream, type UIMessage } from 'ai';
import { weatherAgent } from './agents/weather-agent';
import { providerFromEnv } from './providers/provider-from-env';
import { uiMessagesToInput } from './ui-messages-to-input';

/**
 * A chat route for `useChat`: a plain `(request: Request) => Promise<Response>`, as a Next.js
 * route handler (`export const POST = chatRoute(agent)` in `app/api/chat/route.ts`) or any
 * Fetch-style server. It reads the UI messages `useChat` posts, runs the agent on them, and
 * answers with the run as a UI message stream.
 *
 * Run it: `pnpm tsx --conditions=@keel/source src/chat-route.ts` (offline, scripted), or with
 * ANTHROPIC_API_KEY set, against the real API.
 */
export function chatRoute(agent: Agent<string>): (request: Request) => Promise<Response> {
  return async (request) => {
    let body: unknown;
    try {
      body = await request.json();
    } catch {
      return Response.json({ error: 'the body is not JSON' }, { status: 400 });
    }
    const messages = (body as { messages?: unknown } | null)?.messages;
    if (!Array.isArray(messages) || messages.length === 0) return Response.json({ error: 'the body needs a non-empty messages array' }, { status: 400 });
    const stream = agent.stream(uiMessagesToInput(messages as UIMessage[]), { signal: request.signal });
    return stream.toUIMessageStreamResponse({ onError: () => 'The assistant could not answer. Try again.' });
  };
}

/**
 * Sends one question to the route through `useChat`'s own transport (`DefaultChatTransport`, its
 * `fetch` calling the route in-process instead of the network), reads the answer with the AI
 * SDK's UI stream reader, and prints the assistant's message.
 */
export async function askRoute(route: (request: Request) => Promise<Response>, question: string, log: (line: string) => void = console.log): Promise<UIMessage | undefined> {
  const transport = new DefaultChatTransport<UIMessage>({
    api: 'http://127.0.0.1/api/chat',
    fetch: async (input, init) => route(new Request(input instanceof Request ? input : String(input), init)),
  });
  const messages: UIMessage[] = [{ id: 'u1', role: 'user', parts: [{ type: 'text', text: question }] }];
  const stream = await transport.sendMessages({ chatId: 'chat-1', messages, trigger: 'submit-message', messageId: undefined, abortSignal: undefined });
  let last: UIMessage | undefined;
  for await (const message of readUIMessageStream({ stream, terminateOnError: true })) last = message;
  for (const part of last?.parts ?? []) {
    if (part.type === 'text') log(`assistant: ${part.text}`);
    if (isToolUIPart(part) && part.state === 'output-available') log(`${getToolOrDynamicToolName(part)}: ${JSON.stringify(part.input)} → ${String(part.output)}`);
  }
  return last;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const target = providerFromEnv();
  await askRoute(chatRoute((target ? weatherAgent(target) : weatherAgent()).build()), 'Is it warmer in Paris or in London?');
}
