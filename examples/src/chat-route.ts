import { pathToFileURL } from 'node:url';
import { type Agent, chatStream, keepChatStream, memorySuspendedRuns, reconnectChatStream, type StreamChunkStore, type SuspendedRunStore } from '@keel/core';
import { DefaultChatTransport, getToolOrDynamicToolName, isToolUIPart, lastAssistantMessageIsCompleteWithApprovalResponses, readUIMessageStream, type UIMessage } from 'ai';
import { offlineTarget, supportAgent } from './approvals';
import { NodeChat } from './node-chat';
import { serveRoute } from './node-route-server';
import { providerFromEnv } from './providers/provider-from-env';

/**
 * A chat route for `useChat`: a plain `(request: Request) => Promise<Response>`, as a Next.js
 * route handler (`export const POST = chatRoute(agent, suspended)` in `app/api/chat/route.ts`) or
 * any Fetch-style server (`serveRoute` serves it on Node's own HTTP server). It reads the UI
 * messages `useChat` posts and answers with the run as a UI message stream: a new question starts
 * a run; the client's answer to an approval (`addToolApprovalResponse`) resumes the suspended run
 * from the state kept in `suspended` (one store for every instance of the server, such as Redis).
 *
 * With `streams` (one store of stream chunks for every instance, such as Redis), streams survive
 * a reload: each chat's stream is kept there as it is written, its run goes on when the client
 * goes away, and a client that reconnects (`useChat({ resume: true })`: a GET on
 * `<api>/<chatId>/stream`) reads that stream again, from its start to its end; nothing runs twice.
 *
 * Run it: `pnpm tsx --conditions=@keel/source src/chat-route.ts` (offline, scripted), or with
 * ANTHROPIC_API_KEY set, against the real API.
 */
export function chatRoute(agent: Agent<string, boolean>, suspended: SuspendedRunStore = memorySuspendedRuns(), streams?: StreamChunkStore): (request: Request) => Promise<Response> {
  return async (request) => {
    const reconnect = /\/([^/]+)\/stream$/.exec(new URL(request.url).pathname);
    if (request.method === 'GET' && reconnect && streams) return reconnectChatStream(streams, decodeURIComponent(reconnect[1] as string));
    if (request.method !== 'POST') return Response.json({ error: 'POST the chat\'s messages' }, { status: 405 });
    let body: unknown;
    try {
      body = await request.json();
    } catch {
      return Response.json({ error: 'the body is not JSON' }, { status: 400 });
    }
    const { messages, id } = (body ?? {}) as { messages?: unknown; id?: unknown };
    if (!Array.isArray(messages) || messages.length === 0) return Response.json({ error: 'the body needs a non-empty messages array' }, { status: 400 });
    const onError = () => 'The assistant could not answer. Try again.';
    if (streams && typeof id === 'string') {
      // The run is not the request's: it goes on to its end when the client reloads.
      const stream = await chatStream(agent, messages as UIMessage[], { suspended });
      return keepChatStream(streams, id, stream.toUIMessageStreamResponse({ onError }));
    }
    const stream = await chatStream(agent, messages as UIMessage[], { suspended, signal: request.signal });
    return stream.toUIMessageStreamResponse({ onError });
  };
}

/** The assistant's last message, as lines: its text, each tool call with its input and outcome. */
export function linesOf(message: UIMessage | undefined): string[] {
  return (message?.parts ?? []).flatMap((part) => {
    if (part.type === 'text') return [`assistant: ${part.text}`];
    if (!isToolUIPart(part)) return [];
    const call = `${getToolOrDynamicToolName(part)}: ${JSON.stringify(part.input)}`;
    if (part.state === 'output-available') return [`${call} → ${String(part.output)}`];
    if (part.state === 'output-denied') return [`${call} → denied`];
    if (part.state === 'output-error') return [`${call} → ${part.errorText}`];
    return part.state === 'approval-requested' ? [`${call} → waiting for approval`] : [];
  });
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
  for (const line of linesOf(last)) log(line);
  return last;
}

/**
 * The approval round trip as a chat page makes it, over HTTP: the AI SDK's chat client (what
 * `useChat` wraps) asks, gets an approval request, answers it (`addToolApprovalResponse`), and the
 * route resumes the run; the client sends the answer by itself (`sendAutomaticallyWhen`).
 */
export async function chatWithApproval(url: string, question: string, decision: 'approve' | 'reject', log: (line: string) => void = console.log): Promise<NodeChat> {
  const chat = new NodeChat({ transport: new DefaultChatTransport({ api: url }), sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithApprovalResponses });
  await chat.sendMessage({ text: question });
  await chat.settled();
  // A live model may ask more than once (or not at all): answer each approval the run asks for.
  for (let asked = pendingApprovals(chat); asked.length > 0; asked = pendingApprovals(chat)) {
    for (const line of linesOf(chat.lastMessage)) log(line);
    log(`reviewer: ${decision}`);
    for (const id of asked) await chat.addToolApprovalResponse({ id, approved: decision === 'approve', ...(decision === 'reject' ? { reason: 'refunds above $50 need a receipt photo first' } : {}) });
    await chat.settled();
  }
  for (const line of linesOf(chat.lastMessage)) log(line);
  return chat;
}

/** The ids of the approvals the chat's last message waits on. */
function pendingApprovals(chat: NodeChat): string[] {
  return (chat.lastMessage?.parts ?? []).flatMap((part) => (isToolUIPart(part) && part.state === 'approval-requested' ? [part.approval.id] : []));
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { agent } = supportAgent(providerFromEnv() ?? offlineTarget());
  const server = await serveRoute(chatRoute(agent));
  try {
    await chatWithApproval(server.url, 'My order A-1001 arrived damaged. I want my money back.', 'approve');
  } finally {
    await server.close();
  }
}
