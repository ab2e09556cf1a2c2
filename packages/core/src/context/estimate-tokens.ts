import type { Message } from '../model/message';

/**
 * Characters per token the estimate assumes. Tokenizers of current models read about 4
 * characters of English prose and about 3 of JSON, code or identifiers per token; 3 makes the
 * estimate err high on both, so a request the estimate says fits does fit.
 */
export const ESTIMATE_CHARS_PER_TOKEN = 3;

/** Tokens a message costs beyond its text (role, separators), on the high side. */
const PER_MESSAGE_TOKENS = 4;

/** Tokens a tool call or tool result costs beyond its text (id, name, framing). */
const PER_PART_TOKENS = 8;

/** Tokens of `text`, estimated on the high side. */
export function estimateTextTokens(text: string): number {
  return Math.ceil(text.length / ESTIMATE_CHARS_PER_TOKEN);
}

/** Tokens of one message, estimated on the high side. */
export function estimateMessageTokens(message: Message): number {
  if (message.role === 'system' || message.role === 'user') return PER_MESSAGE_TOKENS + estimateTextTokens(message.content);
  let tokens = PER_MESSAGE_TOKENS;
  if (message.role === 'tool') {
    for (const part of message.content) tokens += PER_PART_TOKENS + estimateTextTokens(part.toolCallId) + estimateTextTokens(part.output);
    return tokens;
  }
  for (const part of message.content) {
    if (part.type === 'text') tokens += estimateTextTokens(part.text);
    else tokens += PER_PART_TOKENS + estimateTextTokens(part.id) + estimateTextTokens(part.name) + estimateTextTokens(part.argumentsText ?? JSON.stringify(part.arguments) ?? '');
  }
  return tokens;
}

/** What a request sends besides its messages: the system prompt and the tools' names, descriptions and schemas. */
export interface RequestFrame {
  readonly system?: string | undefined;
  readonly tools?: readonly { readonly name: string; readonly description?: string; readonly inputSchema?: unknown }[] | undefined;
}

/** Tokens of the part of a request that is the same on every step: system prompt and tool definitions. */
export function estimateFrameTokens(frame: RequestFrame): number {
  let tokens = frame.system === undefined ? 0 : PER_MESSAGE_TOKENS + estimateTextTokens(frame.system);
  for (const tool of frame.tools ?? []) tokens += PER_PART_TOKENS + estimateTextTokens(tool.name) + estimateTextTokens(tool.description ?? '') + estimateTextTokens(JSON.stringify(tool.inputSchema ?? {}) ?? '');
  return tokens;
}

/** Tokens of a whole request, estimated on the high side: the frame and every message. */
export function estimateRequestTokens(frame: RequestFrame, messages: readonly Message[]): number {
  let tokens = estimateFrameTokens(frame);
  for (const message of messages) tokens += estimateMessageTokens(message);
  return tokens;
}
