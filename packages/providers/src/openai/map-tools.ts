import type { ToolChoice, ToolSpecification } from '@keel/provider';
import type { ChatCompletionFunctionTool, ChatCompletionToolChoiceOption } from './openai-types';

/**
 * Maps Keel tools to Chat Completions function tools (`name`, `description`, `parameters`, and
 * `strict: true` for a strict tool, whose schema core has already lowered).
 */
export function mapOpenAITools(tools: readonly ToolSpecification[]): ChatCompletionFunctionTool[] {
  return tools.map((tool) => ({
    type: 'function',
    function: {
      name: tool.name,
      ...(tool.description === '' ? {} : { description: tool.description }),
      parameters: { ...tool.inputSchema },
      ...(tool.strict === true ? { strict: true } : {}),
    },
  }));
}

/** Maps a Keel tool choice: `auto`, `required`, `none`, a named tool → `{ type: 'function', function: { name } }`. */
export function mapOpenAIToolChoice(choice: ToolChoice): ChatCompletionToolChoiceOption {
  switch (choice.type) {
    case 'auto':
    case 'required':
    case 'none':
      return choice.type;
    case 'tool':
      return { type: 'function', function: { name: choice.name } };
  }
}
