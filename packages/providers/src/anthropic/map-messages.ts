import { type Message, toolInputOf } from '@keel/provider';
import type { ContentBlockParam, MessageParam } from './anthropic-types';
import { ephemeralCacheControl } from './cache-control';
import { mapAnthropicAttachment } from './map-attachments';

/** One Keel message as a Messages API turn, before same-role turns are merged. */
interface Turn {
  readonly role: 'user' | 'assistant';
  readonly blocks: ContentBlockParam[];
  readonly ephemeral: boolean;
}

function hasText(text: string): boolean {
  return text.trim() !== '';
}

function toTurn(message: Message): Turn | undefined {
  const ephemeral = message.ephemeral === true;
  switch (message.role) {
    case 'system':
      return undefined;
    case 'user':
      return {
        role: 'user',
        ephemeral,
        blocks: [...(message.attachments ?? []).map(mapAnthropicAttachment), ...(hasText(message.content) ? [{ type: 'text' as const, text: message.content }] : [])],
      };
    case 'assistant':
      return {
        role: 'assistant',
        ephemeral,
        blocks: message.content.flatMap((part): ContentBlockParam[] => {
          if (part.type === 'text') return hasText(part.text) ? [{ type: 'text', text: part.text }] : [];
          return [{ type: 'tool_use', id: part.id, name: part.name, input: toolInputOf(part.arguments) }];
        }),
      };
    case 'tool':
      return {
        role: 'user',
        ephemeral,
        blocks: message.content.map((result): ContentBlockParam => ({
          type: 'tool_result',
          tool_use_id: result.toolCallId,
          ...(result.output === '' ? {} : { content: result.output }),
          ...(result.isError ? { is_error: true } : {}),
        })),
      };
  }
}

/** Puts a cache breakpoint on the last block of the last turn that is not ephemeral. */
function markCacheBreakpoint(turns: Turn[]): void {
  for (let index = turns.length - 1; index >= 0; index -= 1) {
    const turn = turns[index];
    if (turn === undefined || turn.ephemeral) continue;
    const last = turn.blocks.length - 1;
    const block = turn.blocks[last];
    if (block === undefined) continue;
    turn.blocks[last] = { ...block, cache_control: ephemeralCacheControl } as ContentBlockParam;
    return;
  }
}

/** Tool results must open a user turn: they go first, everything else keeps its order. */
function toolResultsFirst(blocks: ContentBlockParam[]): ContentBlockParam[] {
  return [...blocks.filter((block) => block.type === 'tool_result'), ...blocks.filter((block) => block.type !== 'tool_result')];
}

/**
 * Maps Keel messages to Messages API turns: user text (after its images and documents), assistant text and `tool_use` blocks, tool
 * messages as a user turn of `tool_result` blocks. Empty text is dropped, turns with nothing left
 * are dropped, and consecutive same-role turns are merged so roles alternate. With `cache`, the
 * last block of the last non-ephemeral message carries a cache breakpoint, so ephemeral retry
 * feedback after it is the only uncached input.
 */
export function mapAnthropicMessages(messages: readonly Message[], options: { readonly cache: boolean }): MessageParam[] {
  const turns = messages.map(toTurn).filter((turn): turn is Turn => turn !== undefined && turn.blocks.length > 0);
  if (options.cache) markCacheBreakpoint(turns);
  const merged: { role: 'user' | 'assistant'; blocks: ContentBlockParam[] }[] = [];
  for (const turn of turns) {
    const previous = merged.at(-1);
    if (previous !== undefined && previous.role === turn.role) previous.blocks.push(...turn.blocks);
    else merged.push({ role: turn.role, blocks: [...turn.blocks] });
  }
  return merged.map(({ role, blocks }) => ({ role, content: role === 'user' ? toolResultsFirst(blocks) : blocks }));
}
