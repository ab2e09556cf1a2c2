/** Plain text produced by the model or the user. */
export interface TextPart {
  readonly type: 'text';
  readonly text: string;
}

/** A request from the model to run a tool. */
export interface ToolCallPart {
  readonly type: 'tool-call';
  /** The call's id, which its tool result answers: Keel's (unique within the conversation) once the run took the turn. */
  readonly id: string;
  /** The id the provider gave the call, when Keel's replaced it (kept for the wire: provider metadata is keyed by it). */
  readonly providerId?: string;
  /** Name of the tool to run. */
  readonly name: string;
  /**
   * The arguments: the parsed JSON value, or the raw string when the provider's arguments were
   * not valid JSON (validation then reports it).
   */
  readonly arguments: unknown;
  /**
   * The arguments exactly as the model wrote them (JSON text), when the provider has them. Core
   * reads this text with the same exact parser as final answers, so duplicate keys and numbers a
   * double cannot hold are validation failures rather than silently changed values. Providers
   * should set it; when absent, `arguments` is taken as it is.
   */
  readonly argumentsText?: string;
}

/** The outcome of one tool call, sent back to the model. */
export interface ToolResultPart {
  readonly type: 'tool-result';
  /** The id of the tool call this answers. */
  readonly toolCallId: string;
  readonly toolName: string;
  /** What the model reads: the tool's output, or the error text. */
  readonly output: string;
  /** True when the call failed (unknown tool, rejected or invalid arguments, tool threw). */
  readonly isError: boolean;
}

/**
 * Where an attachment's bytes are: inline as base64 (`data`, without a `data:` prefix) or at a URL
 * the vendor fetches (`url`), exactly one of them. Plain JSON, so run states and memory keep it.
 */
export type AttachmentSource = { readonly data: string; readonly url?: never } | { readonly url: string; readonly data?: never };

/** An image the model sees (`image/png`, `image/jpeg`, `image/gif`, `image/webp`). */
export type ImagePart = {
  readonly type: 'image';
  /** The image's IANA media type, e.g. `image/png`. */
  readonly mediaType: string;
} & AttachmentSource;

/** A file the model reads, e.g. a PDF. */
export type FilePart = {
  readonly type: 'file';
  /** The file's IANA media type, e.g. `application/pdf`. */
  readonly mediaType: string;
  /** The file's name, where the vendor takes one. */
  readonly filename?: string;
} & AttachmentSource;

/** An image or a file sent with a user message (see {@link UserMessage.attachments}). */
export type AttachmentPart = ImagePart | FilePart;

/** Flags shared by every message. */
interface MessageBase {
  /**
   * A persistence flag: an ephemeral message is sent to the model but never stored in memory,
   * the run's kept messages or the caller's arrays. Retry feedback is ephemeral.
   */
  readonly ephemeral?: boolean;
}

/** Instructions for the model. Usually given with the builder's `.system()`. */
export interface SystemMessage extends MessageBase {
  readonly role: 'system';
  readonly content: string;
}

/** Input from the user (or feedback from the framework, when ephemeral). */
export interface UserMessage extends MessageBase {
  readonly role: 'user';
  readonly content: string;
  /**
   * Images and files sent with the text, before it (model spec v1, added in 1.1). Each adapter
   * sends them as its vendor takes them, or refuses the call with a `bad-request` naming what it
   * cannot send; a provider that predates them does not read them.
   */
  readonly attachments?: readonly AttachmentPart[];
}

/** A model turn: text and tool calls, in order. */
export interface AssistantMessage extends MessageBase {
  readonly role: 'assistant';
  readonly content: readonly (TextPart | ToolCallPart)[];
}

/** Results of the tool calls of the preceding assistant turn. */
export interface ToolMessage extends MessageBase {
  readonly role: 'tool';
  readonly content: readonly ToolResultPart[];
}

/** Any message of a conversation. */
export type Message = SystemMessage | UserMessage | AssistantMessage | ToolMessage;

/** The text of an assistant turn, its text parts joined. */
export function textOf(message: Pick<AssistantMessage, 'content'>): string {
  let text = '';
  for (const part of message.content) if (part.type === 'text') text += part.text;
  return text;
}

/** The tool calls of an assistant turn. */
export function toolCallsOf(message: Pick<AssistantMessage, 'content'>): ToolCallPart[] {
  return message.content.filter((part): part is ToolCallPart => part.type === 'tool-call');
}
