import type { Message } from '@keel/provider';

/**
 * Characters per token the estimate assumes, by class, so that it errs high on every kind of text
 * a run carries: letters 3 (English prose reads about 4 to 6 characters a token; identifiers,
 * code and random strings about 3), whitespace 8, and 1.3 for digits, punctuation and everything
 * else (numbers split into short runs; ids, dates and JSON cost about a token per symbol), where
 * one rate of characters a token reads low on tool output of ids, dates and amounts.
 * `pnpm --filter @keel/bench bench:long-run` runs it against a vendor counting with a BPE
 * tokenizer: compacting at 0.8 of the window, no request comes near the window.
 */
export const ESTIMATE_CHARS_PER_TOKEN = Object.freeze({ letter: 3, space: 8, other: 1.3 });

/** Tokens a message costs beyond its text (role, separators), on the high side. */
const PER_MESSAGE_TOKENS = 4;

/** Tokens a tool call or tool result costs beyond its text (id, name, framing). */
const PER_PART_TOKENS = 8;

/** Messages already estimated: a run estimates the same kept messages before every step. */
const estimated = new WeakMap<Message, number>();

/** Tokens of `text`, estimated on the high side. */
export function estimateTextTokens(text: string): number {
  let letters = 0;
  let spaces = 0;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if ((code >= 97 && code <= 122) || (code >= 65 && code <= 90)) letters++;
    else if (code === 32 || code === 10 || code === 9 || code === 13) spaces++;
  }
  const other = text.length - letters - spaces;
  return Math.ceil(letters / ESTIMATE_CHARS_PER_TOKEN.letter + spaces / ESTIMATE_CHARS_PER_TOKEN.space + other / ESTIMATE_CHARS_PER_TOKEN.other);
}

/** Tokens of one message, estimated on the high side (once per message object). */
export function estimateMessageTokens(message: Message): number {
  let tokens = estimated.get(message);
  if (tokens === undefined) estimated.set(message, (tokens = messageTokens(message)));
  return tokens;
}

function messageTokens(message: Message): number {
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
