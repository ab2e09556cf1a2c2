import { type AttachmentPart, attachmentSource, attachmentUrl, ProviderError } from '@keel/provider';
import type { ChatCompletionContentPart } from './openai-types';

/**
 * An attachment as a Chat Completions content part: an image as `image_url` (its URL, or its
 * bytes as a `data:` URL), a file as `file` with its bytes as a `data:` URL (Chat Completions
 * takes no file by URL: that is a `bad-request` ProviderError, before anything is sent).
 */
export function mapOpenAIAttachment(part: AttachmentPart): ChatCompletionContentPart {
  if (part.type === 'image') return { type: 'image_url', image_url: { url: attachmentUrl(part) } };
  if (attachmentSource(part).type === 'url') {
    throw new ProviderError({ message: 'OpenAI Chat Completions cannot take a file by URL: send its bytes as data (base64)', errorKind: 'bad-request', provider: 'openai' });
  }
  return { type: 'file', file: { file_data: attachmentUrl(part), filename: part.filename ?? 'file' } };
}
