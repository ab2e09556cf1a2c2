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

function sameJson(candidate: string, value: unknown): boolean {
  try {
    return JSON.stringify(JSON.parse(candidate)) === JSON.stringify(value);
  } catch {
    return false;
  }
}

/**
 * A tool result as the text the model reads: text blocks as they are, images, audio, binary
 * resources and resource links described in one line each (type, size, URI; never dropped
 * silently, never their bytes), embedded text resources with their URI, and the structured
 * content as JSON unless a text block already carries it (as the spec asks servers to do).
 * Blocks are separated by a blank line.
 */
export function resultText(result: { readonly content?: readonly ContentBlock[] | undefined; readonly structuredContent?: unknown }): string {
  const blocks: readonly ContentBlock[] = Array.isArray(result.content) ? result.content : [];
  const parts = blocks.map(describeBlock);
  const structured = result.structuredContent;
  if (structured !== undefined && !blocks.some((block) => block.type === 'text' && sameJson(text(block.text), structured))) {
    parts.push(JSON.stringify(structured));
  }
  return parts.join('\n\n');
}
