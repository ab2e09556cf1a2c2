import type { ToolChoice as KeelToolChoice, ToolSpecification } from '@keel/provider';
import type { Tool, ToolChoice } from './anthropic-types';
import { ephemeralCacheControl } from './cache-control';

/**
 * Maps Keel tools to Messages API tool definitions (`name`, `description`, `input_schema`, and
 * `strict: true` for a strict tool, whose schema core has already lowered). With `cache`, the
 * last definition carries a cache breakpoint (tools precede the messages in the cached prefix).
 */
export function mapAnthropicTools(tools: readonly ToolSpecification[], options: { readonly cache: boolean }): Tool[] {
  return tools.map((tool, index) => ({
    name: tool.name,
    ...(tool.description === '' ? {} : { description: tool.description }),
    input_schema: { type: 'object', ...tool.inputSchema },
    ...(tool.strict === true ? { strict: true } : {}),
    ...(options.cache && index === tools.length - 1 ? { cache_control: ephemeralCacheControl } : {}),
  }));
}

/** Maps a Keel tool choice: `auto`, `required` → `any`, `none`, a named tool → `{ type: 'tool', name }`. */
export function mapAnthropicToolChoice(choice: KeelToolChoice): ToolChoice {
  switch (choice.type) {
    case 'auto':
      return { type: 'auto' };
    case 'required':
      return { type: 'any' };
    case 'none':
      return { type: 'none' };
    case 'tool':
      return { type: 'tool', name: choice.name };
  }
}
