import type { AssistantMessage, Message } from '@keel/provider';
import { toResultPart, type ToolCallRecord } from '../../tools/tool-result';
import type { ToolTurn } from '../../contracts/run-state';

/**
 * What a turn whose tool calls all finished adds to the kept messages: the model's turn, each call
 * with the arguments it ran with (the raw text the model first wrote may be what was corrected),
 * then the results in call order. The journal's `tool-results` entry holds the records only; its
 * fold makes these messages from them the same way.
 */
export function keptTurnMessages(turn: Pick<ToolTurn, 'content'>, records: readonly ToolCallRecord[]): readonly [AssistantMessage, Message] {
  const byId = new Map(records.map((record) => [record.toolCallId, record]));
  const assistant: AssistantMessage = {
    role: 'assistant',
    content: turn.content.map((part) => {
      if (part.type !== 'tool-call') return part;
      const call = { type: 'tool-call' as const, id: part.id, name: part.name, arguments: (byId.get(part.id) as ToolCallRecord).arguments };
      return part.providerId === undefined ? call : { ...call, providerId: part.providerId };
    }),
  };
  return [assistant, { role: 'tool', content: records.map(toResultPart) }];
}
