export type {
  AssistantMessage,
  Message,
  SystemMessage,
  TextPart,
  ToolCallPart,
  ToolMessage,
  ToolResultPart,
  UserMessage,
} from './model/message';
export { textOf, toolCallsOf } from './model/message';
export type {
  FinishReason,
  ModelCallErrorShape,
  ModelCallOptions,
  ModelProvider,
  ModelProviderV1,
  ModelRequest,
  ModelResponse,
  ModelStreamPart,
  ModelUsage,
  ResponseFormat,
  ToolChoice,
  ToolSpecification,
} from './model/model-provider-v1';
export type { ErrorKind } from '@keel/reliability';
