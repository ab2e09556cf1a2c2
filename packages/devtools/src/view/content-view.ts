import { isObject } from './fields';
import type { MessageView } from './run-view';

/** A JSON value as one line of text (what a tool was called with). */
const compact = (value: unknown): string => {
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
};

/** One content part (text, a tool call, a tool result) as text; anything else as its JSON. */
export function partText(part: unknown): string {
  if (!isObject(part)) return compact(part);
  if (part.type === 'text' && typeof part.text === 'string') return part.text;
  if (part.type === 'tool-call') return `→ ${String(part.name)}(${typeof part.argumentsText === 'string' ? part.argumentsText : compact(part.arguments)}) [${String(part.id)}]`;
  if (part.type === 'tool-result') return `${part.isError === true ? '✗' : '←'} ${String(part.toolName)} [${String(part.toolCallId)}]: ${String(part.output)}`;
  return compact(part);
}

/** A message as the page shows it. */
export function messageView(message: unknown): MessageView {
  if (!isObject(message)) return { role: 'unknown', ephemeral: false, text: compact(message) };
  const { content } = message;
  const text = typeof content === 'string' ? content : Array.isArray(content) ? content.map(partText).join('\n') : compact(content);
  return { role: typeof message.role === 'string' ? message.role : 'unknown', ephemeral: message.ephemeral === true, text };
}
