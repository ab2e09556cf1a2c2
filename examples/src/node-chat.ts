import { AbstractChat, type ChatInit, type ChatState, type ChatStatus, type UIMessage } from 'ai';

/** The state of a chat kept in plain fields: what `useChat` keeps in React state, for Node. */
class PlainChatState<M extends UIMessage> implements ChatState<M> {
  status: ChatStatus = 'ready';
  error: Error | undefined = undefined;
  constructor(public messages: M[] = []) {}
  pushMessage = (message: M) => void this.messages.push(message);
  popMessage = () => void this.messages.pop();
  replaceMessage = (index: number, message: M) => void (this.messages[index] = message);
  snapshot = <T>(thing: T): T => structuredClone(thing);
}

/**
 * The AI SDK's own chat client, the one `useChat` wraps (`AbstractChat`), in Node: it sends
 * messages through its transport, reads the UI message stream into `messages`, and answers
 * approvals (`addToolApprovalResponse`), as a React page would.
 */
export class NodeChat<M extends UIMessage = UIMessage> extends AbstractChat<M> {
  constructor(init: Omit<ChatInit<M>, 'messages'> & { readonly messages?: M[] }) {
    super({ ...init, state: new PlainChatState<M>(init.messages ?? []) });
  }

  /** Waits until the chat is ready again (its request and any automatic follow-up done), or failed. */
  async settled(timeoutMs = 10_000): Promise<void> {
    const until = Date.now() + timeoutMs;
    // A request made automatically (after an approval) starts a tick later: wait for it too.
    for (let quiet = 0; quiet < 3; ) {
      if (Date.now() > until) throw new Error(`the chat is still ${this.status} after ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 10));
      quiet = this.status === 'ready' || this.status === 'error' ? quiet + 1 : 0;
    }
  }
}
