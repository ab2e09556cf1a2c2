import { approvalOf } from '../agent/approval-id';
import type { Message } from '@keel/provider';
import type { ResumeDecisions } from '../run/state/resume-decisions';
import { field, text, type UIMessageLike } from './ui-message-like';

type Attachment = NonNullable<Extract<Message, { role: 'user' }>['attachments']>[number];
type AssistantContent = Extract<Message, { role: 'assistant' }>['content'][number];
type ToolResult = Extract<Message, { role: 'tool' }>['content'][number];
type Part = UIMessageLike['parts'][number];

/**
 * What a chat request asks of the route: `start` a run on the conversation (`messages`), or
 * `resume` the suspended run whose approvals the client answered (`addToolApprovalResponse`),
 * named by its `suspensionId`, with the client's `decisions`. Resume the state kept for that
 * suspension (`agent.resumeStream(state, decisions)`, or `chatStream()` does it all). A resume
 * has no `messages` on purpose: running the conversation again would ask for the same approval
 * again, for ever.
 */
export type ChatInput =
  | { readonly type: 'start'; readonly messages: Message[] }
  | { readonly type: 'resume'; readonly suspensionId: string; readonly decisions: ResumeDecisions };

/** A file part of the UI as a Keel attachment: a data URL is sent inline, any other URL is fetched by the vendor. */
function attachmentOf(part: Part): Attachment[] {
  const url = text(part, 'url');
  const mediaType = text(part, 'mediaType');
  if (url === undefined || mediaType === undefined) return [];
  const inline = /^data:[^;,]*;base64,(.*)$/s.exec(url);
  const source = inline ? { data: inline[1] as string } : { url };
  if (mediaType.startsWith('image/')) return [{ type: 'image', mediaType, ...source }];
  const filename = text(part, 'filename');
  return [filename === undefined ? { type: 'file', mediaType, ...source } : { type: 'file', mediaType, filename, ...source }];
}

/** A tool part's name: `tool-<name>`, or a dynamic tool's `toolName`. */
function toolNameOf(part: Part): string | undefined {
  if (part.type === 'dynamic-tool') return text(part, 'toolName');
  return part.type.startsWith('tool-') ? part.type.slice('tool-'.length) : undefined;
}

/** A finished tool part's result as the model read it: its output, its error, or the reason it was denied. */
function resultOf(part: Part, toolCallId: string, toolName: string): ToolResult | undefined {
  const state = text(part, 'state');
  if (state === 'output-available') {
    const output = field(part, 'output');
    return { type: 'tool-result', toolCallId, toolName, output: typeof output === 'string' ? output : (JSON.stringify(output ?? null) ?? 'null'), isError: false };
  }
  if (state === 'output-error') return { type: 'tool-result', toolCallId, toolName, output: text(part, 'errorText') ?? 'An error occurred.', isError: true };
  if (state !== 'output-denied') return undefined;
  const approval = field(part, 'approval');
  const reason = typeof approval === 'object' && approval !== null ? text(approval, 'reason') : undefined;
  return { type: 'tool-result', toolCallId, toolName, output: `Error [approval-rejected]: this call was not approved, so the tool did not run${reason === undefined ? '' : ` (the reason given: ${JSON.stringify(reason)})`}`, isError: true };
}

/** One step of an assistant message: its turn (text and the calls that have results), then the results. */
function stepMessages(parts: readonly Part[]): Message[] {
  const content: AssistantContent[] = [];
  const results: ToolResult[] = [];
  for (const part of parts) {
    const partText = part.type === 'text' ? text(part, 'text') : undefined;
    if (partText) content.push({ type: 'text', text: partText });
    const toolCallId = text(part, 'toolCallId');
    const name = toolNameOf(part);
    if (toolCallId === undefined || name === undefined) continue;
    const result = resultOf(part, toolCallId, name);
    if (!result) continue;
    content.push({ type: 'tool-call', id: toolCallId, name, arguments: field(part, 'input') ?? null });
    results.push(result);
  }
  const turn: Message[] = content.length > 0 ? [{ role: 'assistant', content }] : [];
  return results.length > 0 ? [...turn, { role: 'tool', content: results }] : turn;
}

/** An assistant message split at its step boundaries, each step a turn of its own. */
function assistantMessages(message: UIMessageLike): Message[] {
  const steps: Part[][] = [[]];
  for (const part of message.parts) {
    if (part.type === 'step-start') steps.push([]);
    else steps.at(-1)?.push(part);
  }
  return steps.flatMap(stepMessages);
}

/** The conversation as Keel messages: user text with its files as attachments, assistant turns with the calls that have results, system text. */
function conversation(messages: readonly UIMessageLike[]): Message[] {
  return messages.flatMap((message): Message[] => {
    const joined = message.parts.flatMap((part) => (part.type === 'text' ? [text(part, 'text') ?? ''] : [])).join('\n');
    if (message.role === 'system') return [{ role: 'system', content: joined }];
    if (message.role === 'assistant') return assistantMessages(message);
    const attachments = message.parts.flatMap((part) => (part.type === 'file' ? attachmentOf(part) : []));
    return [attachments.length > 0 ? { role: 'user', content: joined, attachments } : { role: 'user', content: joined }];
  });
}

/** The approvals the client answered in the last message (parts in state `approval-responded`), by the suspension their ids name. */
function answeredApprovals(message: UIMessageLike | undefined): { readonly suspensionId: string; readonly decisions: ResumeDecisions } | undefined {
  if (message?.role !== 'assistant') return undefined;
  let suspensionId: string | undefined;
  const approve: string[] = [];
  const reject: { id: string; reason?: string }[] = [];
  for (const part of message.parts) {
    const approval = field(part, 'approval');
    if (text(part, 'state') !== 'approval-responded' || typeof approval !== 'object' || approval === null) continue;
    const named = approvalOf(text(approval, 'id') ?? '');
    if (!named || (suspensionId !== undefined && named.suspensionId !== suspensionId)) continue;
    suspensionId = named.suspensionId;
    const reason = text(approval, 'reason');
    if (field(approval, 'approved') === true) approve.push(named.toolCallId);
    else reject.push(reason === undefined ? { id: named.toolCallId } : { id: named.toolCallId, reason });
  }
  return suspensionId === undefined ? undefined : { suspensionId, decisions: { approve, reject } };
}

/**
 * Reads the UI messages `useChat` sends (the AI SDK 6 `UIMessage[]`). When the last message is
 * the assistant's with approvals the client answered (`addToolApprovalResponse`), the request
 * resumes that suspended run: `{ type: 'resume', suspensionId, decisions }`. Otherwise it starts
 * a run on the conversation: `{ type: 'start', messages }`, user text with its files as
 * attachments (a `data:` URL inline, any other by URL), earlier assistant turns split at their
 * steps with the tool calls that have results (a denied call as a rejected result; a call still
 * waiting has none, so it is left out), system text as it is.
 */
export function uiMessagesToInput(messages: readonly UIMessageLike[]): ChatInput {
  const answered = answeredApprovals(messages.at(-1));
  return answered ? { type: 'resume', ...answered } : { type: 'start', messages: conversation(messages) };
}
