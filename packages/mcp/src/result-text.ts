import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

type ContentBlock = CallToolResult['content'][number];

/** Bytes a base64 text decodes to (about), for descriptions. */
function base64Bytes(data: unknown): number {
  if (typeof data !== 'string') return 0;
  const padding = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
  return Math.max(0, Math.floor((data.length * 3) / 4) - padding);
}

function size(bytes: number): string {
  return bytes < 1024 ? `${bytes} bytes` : bytes < 1024 * 1024 ? `${(bytes / 1024).toFixed(1)} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

const text = (value: unknown): string => (typeof value === 'string' ? value : JSON.stringify(value) ?? '');

/** One content block as the model reads it: text as it is, anything else described in one line. */
function describeBlock(block: ContentBlock): string {
  switch (block.type) {
    case 'text':
      return text(block.text);
    case 'image':
      return `[image: ${text(block.mimeType)}, ${size(base64Bytes(block.data))}, not shown]`;
    case 'audio':
      return `[audio: ${text(block.mimeType)}, ${size(base64Bytes(block.data))}, not shown]`;
    case 'resource': {
      const resource = block.resource as { uri?: unknown; mimeType?: unknown; text?: unknown; blob?: unknown };
      const mime = resource.mimeType === undefined ? '' : `, ${text(resource.mimeType)}`;
      if (typeof resource.text === 'string') return `[resource ${text(resource.uri)}${mime}]\n${resource.text}`;
      return `[resource ${text(resource.uri)}${mime}, ${size(base64Bytes(resource.blob))} of binary data, not shown]`;
    }
    case 'resource_link': {
      const mime = block.mimeType === undefined ? '' : `, ${text(block.mimeType)}`;
      const description = block.description === undefined ? '' : `: ${text(block.description)}`;
      return `[resource link ${text(block.name)} <${text(block.uri)}>${mime}${description}]`;
    }
    default:
      return `[content of type ${JSON.stringify(text((block as { type?: unknown }).type))}, not shown]`;
  }
}

/**
 * A tool result as the text the model reads, each part of it once: the content blocks when there
 * are any (text as it is; images, audio, binary resources and resource links described in one line
 * each, with type, MIME type and size or URI, never dropped silently and never their bytes;
 * embedded text resources with their URI), else the structured content as JSON. The content is
 * the whole answer (the spec asks a server that returns structured content to return it in a
 * text block too), so structured content beside it would say the same thing twice, or carry the
 * bytes of an image the content shows as an image. Blocks are separated by a blank line.
 */
export function resultText(result: { readonly content?: readonly ContentBlock[] | undefined; readonly structuredContent?: unknown }): string {
  const blocks: readonly ContentBlock[] = Array.isArray(result.content) ? result.content : [];
  if (blocks.length > 0 || result.structuredContent === undefined) return blocks.map(describeBlock).join('\n\n');
  return JSON.stringify(result.structuredContent) ?? '';
}
