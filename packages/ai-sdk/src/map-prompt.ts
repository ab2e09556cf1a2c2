import type { LanguageModelV3FilePart, LanguageModelV3Message, LanguageModelV3Prompt, SharedV3ProviderOptions } from '@ai-sdk/provider';
import { type AttachmentPart, attachmentSource, type Message, type ModelRequest, ProviderError, toolInputOf } from '@keel/provider';
import type { ToolCallMetadata } from './tool-call-metadata';

/** How {@link mapPrompt} marks the prompt. */
export interface PromptSettings {
  /** Provider options that place a cache breakpoint, or `undefined` for none. */
  readonly cacheBreakpoint: SharedV3ProviderOptions | undefined;
  /** Provider metadata of earlier tool calls, sent back with them. */
  readonly toolCalls: ToolCallMetadata;
}

const hasText = (text: string) => text.trim() !== '';

/** An attachment's URL, or a `bad-request` naming it when it is not one. */
function urlOf(text: string): URL {
  if (URL.canParse(text)) return new URL(text);
  throw new ProviderError({ message: `an attachment's url is not a URL: ${JSON.stringify(text.slice(0, 80))}`, errorKind: 'bad-request', provider: 'ai-sdk' });
}

/**
 * An attachment as the spec's file part (images are files with an `image/*` media type): its
 * base64 bytes, or its URL for the provider package to send or download as it does.
 */
function fileOf(part: AttachmentPart): LanguageModelV3FilePart {
  const source = attachmentSource(part);
  return {
    type: 'file',
    mediaType: part.mediaType,
    data: source.type === 'base64' ? source.data : urlOf(source.url),
    ...(part.type === 'file' && part.filename !== undefined ? { filename: part.filename } : {}),
  };
}

/** One Keel message as a spec message, or `undefined` when nothing of it is left to send. */
function toMessage(message: Message, settings: PromptSettings): LanguageModelV3Message | undefined {
  switch (message.role) {
    case 'system':
      return undefined;
    case 'user': {
      const files = (message.attachments ?? []).map(fileOf);
      const content = [...files, ...(hasText(message.content) ? [{ type: 'text' as const, text: message.content }] : [])];
      return content.length === 0 ? undefined : { role: 'user', content };
    }
    case 'assistant': {
      const content = message.content.flatMap((part): Extract<LanguageModelV3Message, { role: 'assistant' }>['content'] => {
        if (part.type === 'text') return hasText(part.text) ? [{ type: 'text', text: part.text }] : [];
        // Provider metadata (a thought signature, say) is keyed by the provider's id, kept beside Keel's.
        const metadata = settings.toolCalls.recall(part.providerId ?? part.id, part.name);
        return [{ type: 'tool-call', toolCallId: part.id, toolName: part.name, input: toolInputOf(part.arguments), ...(metadata === undefined ? {} : { providerOptions: metadata }) }];
      });
      return content.length === 0 ? undefined : { role: 'assistant', content };
    }
    case 'tool':
      if (message.content.length === 0) return undefined;
      return {
        role: 'tool',
        content: message.content.map((result) => ({
          type: 'tool-result',
          toolCallId: result.toolCallId,
          toolName: result.toolName,
          output: result.isError ? { type: 'error-text', value: result.output } : { type: 'text', value: result.output },
        })),
      };
  }
}

/**
 * Maps a Keel request's system prompt and messages to the spec's prompt: one leading system
 * message (the request's `system`, then any system messages, joined by blank lines: several
 * providers take the system prompt only first), user text (after its images and files, as file
 * parts), assistant text and tool calls (with the
 * provider metadata the model gave them), and tool results (`error-text` when the call failed).
 * Blank text is dropped, and messages with nothing left. With a cache breakpoint, it goes on the
 * system message and on the last message that is not ephemeral, so retry feedback after it is the
 * only input not read from the cache.
 */
export function mapPrompt(request: Pick<ModelRequest, 'system' | 'messages'>, settings: PromptSettings): LanguageModelV3Prompt {
  const systemParts = [request.system ?? '', ...request.messages.map((message) => (message.role === 'system' ? message.content : ''))].filter(hasText);
  const prompt: LanguageModelV3Message[] = [];
  const { cacheBreakpoint } = settings;
  if (systemParts.length > 0) {
    prompt.push({ role: 'system', content: systemParts.join('\n\n'), ...(cacheBreakpoint === undefined ? {} : { providerOptions: cacheBreakpoint }) });
  }
  let lastKept = -1;
  for (const message of request.messages) {
    const mapped = toMessage(message, settings);
    if (mapped === undefined) continue;
    prompt.push(mapped);
    if (message.ephemeral !== true) lastKept = prompt.length - 1;
  }
  const last = prompt[lastKept];
  if (cacheBreakpoint !== undefined && last !== undefined && last.role !== 'system') prompt[lastKept] = { ...last, providerOptions: cacheBreakpoint };
  return prompt;
}
