import { badResponse, type ModelResponse, refuseContextWindowStop, responseOf, shapeOf, type TextPart, type ToolCallPart } from '@keel/provider';
import { mapFinishReason, rawFinishReason } from './map-finish-reason';
import { mapUsage } from './map-usage';
import { toolCallOf } from './parse-tool-input';
import type { ToolCallMetadata } from './tool-call-metadata';

/** What {@link mapResponse} needs besides the result. */
export interface ResponseContext {
  readonly provider: string;
  readonly toolCalls: ToolCallMetadata;
}

/**
 * Maps the spec's generate result to a Keel response: text parts and tool calls in order (tool
 * calls the provider executed itself, reasoning, files, sources and provider tool results are not
 * Keel's to run or keep, and are left out), all text joined, the finish reason, usage, and the
 * response's model and id. The provider metadata of each tool call is remembered, to be sent back
 * with it. A result that breaks the spec (no content list, a part without its fields) throws a
 * `bad-response` error.
 */
export function mapResponse(result: unknown, context: ResponseContext): ModelResponse {
  if (typeof result !== 'object' || result === null) throw badResponse(context.provider, `the result is ${shapeOf(result)}`);
  const { content: parts, finishReason, usage, response } = result as Record<string, unknown>;
  if (!Array.isArray(parts)) throw badResponse(context.provider, `content is ${shapeOf(parts)}`);
  const content: (TextPart | ToolCallPart)[] = [];
  for (const part of parts as unknown[]) {
    if (typeof part !== 'object' || part === null) throw badResponse(context.provider, `a content part is ${shapeOf(part)}`);
    const fields = part as Record<string, unknown>;
    if (fields.type === 'text') {
      if (typeof fields.text !== 'string') throw badResponse(context.provider, `a text part has text that is ${shapeOf(fields.text)}`);
      content.push({ type: 'text', text: fields.text });
    } else if (fields.type === 'tool-call' && fields.providerExecuted !== true) {
      const { toolCallId, toolName } = fields;
      if (typeof toolCallId !== 'string' || typeof toolName !== 'string') throw badResponse(context.provider, 'a tool call has no string toolCallId and toolName');
      content.push(toolCallOf(toolCallId, toolName, fields.input));
      context.toolCalls.remember(toolCallId, toolName, fields.providerMetadata as never);
    }
  }
  refuseContextWindowStop(rawFinishReason(finishReason), context.provider);
  const metadata = (typeof response === 'object' && response !== null ? response : {}) as Record<string, unknown>;
  return responseOf({ content, finishReason: mapFinishReason(finishReason), usage: mapUsage(usage), modelId: metadata.modelId, responseId: metadata.id });
}
