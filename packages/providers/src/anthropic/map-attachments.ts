import { type AttachmentPart, attachmentSource, ProviderError } from '@keel/provider';
import type { ContentBlockParam } from './anthropic-types';

/** The image types the Messages API reads. */
const IMAGE_TYPES = new Set(['image/jpeg', 'image/png', 'image/gif', 'image/webp']);

/** UTF-8 text from base64, with web-standard globals only. */
function textOfBase64(data: string): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(atob(data), (character) => character.charCodeAt(0)));
  } catch {
    return refuse('a text/plain file whose data is not base64 of UTF-8 text');
  }
}

function refuse(what: string): never {
  throw new ProviderError({ message: `Anthropic cannot take ${what}: send images as image/jpeg, png, gif or webp, and files as application/pdf or text/plain`, errorKind: 'bad-request', provider: 'anthropic' });
}

/**
 * An attachment as a Messages API block: an image as an `image` block, a PDF as a `document`
 * block (base64 or URL), plain text as a `document` of text (decoded from base64). Anything else
 * is a `bad-request` ProviderError naming it, before anything is sent.
 */
export function mapAnthropicAttachment(part: AttachmentPart): ContentBlockParam {
  const source = attachmentSource(part);
  if (part.type === 'image') {
    if (!IMAGE_TYPES.has(part.mediaType)) refuse(`an image of type ${JSON.stringify(part.mediaType)}`);
    const mediaType = part.mediaType as 'image/jpeg' | 'image/png' | 'image/gif' | 'image/webp';
    return { type: 'image', source: source.type === 'base64' ? { type: 'base64', media_type: mediaType, data: source.data } : { type: 'url', url: source.url } };
  }
  const title = part.filename === undefined ? {} : { title: part.filename };
  if (part.mediaType === 'application/pdf') {
    return { type: 'document', source: source.type === 'base64' ? { type: 'base64', media_type: 'application/pdf', data: source.data } : { type: 'url', url: source.url }, ...title };
  }
  if (part.mediaType === 'text/plain' && source.type === 'base64') {
    return { type: 'document', source: { type: 'text', media_type: 'text/plain', data: textOfBase64(source.data) }, ...title };
  }
  return refuse(`a file of type ${JSON.stringify(part.mediaType)}${source.type === 'url' ? ' by URL' : ''}`);
}
