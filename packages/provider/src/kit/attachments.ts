import type { AttachmentPart } from '../spec/message';

/** Where an attachment's bytes come from, as an adapter sends them. */
export type AttachmentWire = { readonly type: 'base64'; readonly data: string } | { readonly type: 'url'; readonly url: string };

/** The source of an attachment: its inline base64 bytes, or its URL. */
export function attachmentSource(part: AttachmentPart): AttachmentWire {
  return typeof part.data === 'string' ? { type: 'base64', data: part.data } : { type: 'url', url: part.url as string };
}

/** An attachment as one URL: its bytes as a `data:` URL, or its own URL. */
export function attachmentUrl(part: AttachmentPart): string {
  const source = attachmentSource(part);
  return source.type === 'base64' ? `data:${part.mediaType};base64,${source.data}` : source.url;
}
