import { useChat } from '@ai-sdk/react';
import { DefaultChatTransport, getToolOrDynamicToolName, isToolUIPart, lastAssistantMessageIsCompleteWithApprovalResponses, type UIMessage } from 'ai';
import { type FormEvent, useState } from 'react';
import { createRoot } from 'react-dom/client';

/**
 * The chat page: `useChat` against the example's route (`/api/chat`), with Approve / Reject
 * buttons on a tool call that waits for approval. The chat's id is in the URL (`?chat=`), and the
 * conversation is kept in the tab (`sessionStorage`) when it is sent and when an answer ends, so
 * a reload shows it again and `resume: true` reads the rest of an answer still being written.
 */

const url = new URL(window.location.href);
const chatId = url.searchParams.get('chat') ?? crypto.randomUUID();
if (!url.searchParams.has('chat')) {
  url.searchParams.set('chat', chatId);
  window.history.replaceState(null, '', url);
}
const storageKey = `keel-chat:${chatId}`;
const keep = (messages: readonly UIMessage[]) => sessionStorage.setItem(storageKey, JSON.stringify(messages));
const kept = JSON.parse(sessionStorage.getItem(storageKey) ?? '[]') as UIMessage[];

const transport = new DefaultChatTransport<UIMessage>({
  api: '/api/chat',
  // The conversation as sent: what a reload shows while the answer to it is resumed.
  prepareSendMessagesRequest: ({ id, messages, body, trigger, messageId }) => {
    keep(messages);
    return { body: { ...body, id, messages, trigger, messageId } };
  },
});

function ToolCall({ part, answer }: { part: Extract<UIMessage['parts'][number], { toolCallId: string }>; answer: (id: string, approved: boolean) => void }) {
  if (!isToolUIPart(part)) return null;
  const name = getToolOrDynamicToolName(part);
  return (
    <div className="tool" data-part="tool" data-tool={name} data-state={part.state}>
      <code>
        {name}({JSON.stringify(part.input)})
      </code>
      {part.state === 'output-available' && <span data-part="output"> → {String(part.output)}</span>}
      {part.state === 'output-error' && <span data-part="error"> → {part.errorText}</span>}
      {part.state === 'output-denied' && <span data-part="denied"> → denied{part.approval.reason ? `: ${part.approval.reason}` : ''}</span>}
      {part.state === 'approval-requested' && (
        <span data-part="approval">
          {' '}
          waits for approval{' '}
          <button type="button" onClick={() => answer(part.approval.id, true)}>
            Approve
          </button>{' '}
          <button type="button" onClick={() => answer(part.approval.id, false)}>
            Reject
          </button>
        </span>
      )}
    </div>
  );
}

function Chat() {
  const [input, setInput] = useState('');
  const { messages, sendMessage, addToolApprovalResponse, status, error } = useChat({
    id: chatId,
    messages: kept,
    transport,
    resume: true,
    sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithApprovalResponses,
    // An answer that ended (not one cut off by a reload: its stream is resumed instead).
    onFinish: ({ messages: all, isAbort, isDisconnect, isError }) => {
      if (!isAbort && !isDisconnect && !isError) keep(all);
    },
  });
  const answer = (id: string, approved: boolean) => void addToolApprovalResponse(approved ? { id, approved } : { id, approved, reason: 'a person rejected the refund' });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (input.trim() === '') return;
    void sendMessage({ text: input });
    setInput('');
  };
  return (
    <main data-status={status}>
      <h1>Refund desk</h1>
      {messages.map((message) => (
        <section key={message.id} className={`message ${message.role}`} data-role={message.role}>
          {message.parts.map((part, index) =>
            part.type === 'text' ? (
              <p key={index} data-part="text">
                {part.text}
              </p>
            ) : 'toolCallId' in part ? (
              <ToolCall key={index} part={part} answer={answer} />
            ) : null,
          )}
        </section>
      ))}
      {error && <p data-part="chat-error">{error.message}</p>}
      <form onSubmit={submit}>
        <input aria-label="Message" value={input} onChange={(event) => setInput(event.target.value)} placeholder="Ask about an order" />
        <button type="submit" disabled={status === 'submitted' || status === 'streaming'}>
          Send
        </button>
      </form>
    </main>
  );
}

createRoot(document.getElementById('root') as HTMLElement).render(<Chat />);
