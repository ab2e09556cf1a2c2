/**
 * The parts of the Messages API wire format the Anthropic adapter reads and writes, re-exported
 * from the vendor SDK under one roof.
 */
export type {
  ContentBlock,
  ContentBlockParam,
  Message,
  MessageCreateParamsNonStreaming,
  MessageParam,
  RawMessageStreamEvent,
  StopReason,
  TextBlockParam,
  Tool,
  ToolChoice,
  ToolResultBlockParam,
  ToolUseBlockParam,
  Usage,
} from '@anthropic-ai/sdk/resources/messages';
