import type { Message } from '@keel/provider';

/**
 * What breaks the pairing of tool calls and results in a request: every tool call must have its
 * result in the next message, and every result its call in the message before. Empty when none;
 * what vendors refuse otherwise, and what compaction must never cause.
 */
export function toolPairingProblems(messages: readonly Message[]): string[] {
  const problems: string[] = [];
  const callIds = (message: Message | undefined): string[] => (message?.role === 'assistant' ? message.content.flatMap((part) => (part.type === 'tool-call' ? [part.id] : [])) : []);
  messages.forEach((message, index) => {
    const ids = callIds(message);
    if (ids.length > 0) {
      const next = messages[index + 1];
      const answered = next?.role === 'tool' ? next.content.map((part) => part.toolCallId) : [];
      for (const id of ids) if (!answered.includes(id)) problems.push(`call ${id} at ${index} has no result`);
    }
    if (message.role === 'tool') {
      const asked = callIds(messages[index - 1]);
      for (const part of message.content) if (!asked.includes(part.toolCallId)) problems.push(`result ${part.toolCallId} at ${index} has no call`);
    }
  });
  return problems;
}
