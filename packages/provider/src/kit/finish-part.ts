import { textOf } from '../spec/message';
import type { TokenUsage } from '@keel/reliability';
import type { FinishReason, ModelResponse, ModelStreamPart } from '../spec/model-provider-v1';

/** What an adapter read of one answer, for {@link responseOf} and {@link finishPart}. */
export interface ResponseFields {
  /** Text and tool calls, in order. */
  readonly content: ModelResponse['content'];
  readonly finishReason: FinishReason;
  readonly usage: TokenUsage;
  /** The model that answered; kept only when it is a string. */
  readonly modelId?: unknown;
  /** The vendor's response id; kept only when it is a string. */
  readonly responseId?: unknown;
}

/** The {@link ModelResponse} of an answer: its text parts joined as `text`, absent ids left out. */
export function responseOf({ content, finishReason, usage, modelId, responseId }: ResponseFields): ModelResponse {
  return {
    content,
    text: textOf({ content }),
    finishReason,
    usage,
    ...(typeof modelId === 'string' ? { modelId } : {}),
    ...(typeof responseId === 'string' ? { responseId } : {}),
  };
}

/** The `finish` part that ends a successful stream, with the whole response. */
export function finishPart(fields: ResponseFields): Extract<ModelStreamPart, { type: 'finish' }> {
  return { type: 'finish', response: responseOf(fields) };
}
