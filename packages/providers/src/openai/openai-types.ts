/**
 * The parts of the Chat Completions wire format the OpenAI adapter reads and writes, re-exported
 * from the vendor SDK under one roof.
 */
export type {
  ChatCompletion,
  ChatCompletionAssistantMessageParam,
  ChatCompletionChunk,
  ChatCompletionContentPart,
  ChatCompletionCreateParamsNonStreaming,
  ChatCompletionFunctionTool,
  ChatCompletionMessageParam,
  ChatCompletionMessageToolCall,
  ChatCompletionToolChoiceOption,
} from 'openai/resources/chat/completions';
export type { CompletionUsage } from 'openai/resources/completions';
