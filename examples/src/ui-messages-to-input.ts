import type { Message } from '@keel/core';
import { getToolOrDynamicToolName, isToolUIPart, type FileUIPart, type UIMessage } from 'ai';

type Attachment = NonNullable<Extract<Message, { role: 'user' }>['attachments']>[number];
type AssistantContent = Extract<Message, { role: 'assistant' }>['content'][number];
type ToolResult = Extract<Message, { role: 'tool' }>['content'][number];

/** A file part of the UI as a Keel attachment: a data URL is sent inline, any other URL is fetched by the vendor. */
function attachmentOf(part: FileUIPart): Attachment {
  const inline = /^data:[^;,]*;base64,(.*)$/s.exec(part.url);
  const source = inline ? { data: inline[1] as string } : { url: part.url };
  if (part.mediaType.startsWith('image/')) return { type: 'image', mediaType: part.mediaType, ...source };
  return part.filename === undefined ? { type: 'file', mediaType: part.mediaType, ...source } : { type: 'file', mediaType: part.mediaType, filename: part.filename, ...source };
}

/** One step of an assistant message: its turn (text and the calls that have results), then the results. */
function stepMessages(parts: UIMessage['parts']): Message[] {
  const content: AssistantContent[] = [];
  const results: ToolResult[] = [];
  for (const part of parts) {
    if (part.type === 'text' && part.text !== '') content.push({ type: 'text', text: part.text });
    if (!isToolUIPart(part) || (part.state !== 'output-available' && part.state !== 'output-error')) continue;
    const name = getToolOrDynamicToolName(part);
    const output = part.state === 'output-error' ? part.errorText : typeof part.output === 'string' ? part.output : JSON.stringify(part.output ?? null);
    content.push({ type: 'tool-call', id: part.toolCallId, name, arguments: part.input });
    results.push({ type: 'tool-result', toolCallId: part.toolCallId, toolName: name, output, isError: part.state === 'output-error' });
  }
  const turn: Message[] = content.length > 0 ? [{ role: 'assistant', content }] : [];
  return results.length > 0 ? [...turn, { role: 'tool', content: results }] : turn;
}

/** An assistant message split at its step boundaries, each step a turn of its own. */
function assistantMessages(message: UIMessage): Message[] {
  const steps: UIMessage['parts'][] = [[]];
  for (const part of message.parts) {
    if (part.type === 'step-start') steps.push([]);
    else steps.at(-1)?.push(part);
  }
  return steps.flatMap(stepMessages);
}

/**
 * The conversation `useChat` sends, as Keel messages: user text with its files as attachments,
 * assistant turns with the tool calls that have results (a call still waiting has none, so it is
 * left out), system text as it is.
 */
export function uiMessagesToInput(messages: readonly UIMessage[]): Message[] {
  return messages.flatMap((message): Message[] => {
    const text = message.parts.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('\n');
    if (message.role === 'system') return [{ role: 'system', content: text }];
    if (message.role === 'assistant') return assistantMessages(message);
    const attachments = message.parts.flatMap((part) => (part.type === 'file' ? [attachmentOf(part)] : []));
    return [attachments.length > 0 ? { role: 'user', content: text, attachments } : { role: 'user', content: text }];
  });
}
