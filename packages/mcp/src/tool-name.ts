/** What model vendors accept as a tool name (Anthropic and OpenAI alike). */
export const TOOL_NAME_PATTERN = /^[a-zA-Z0-9_-]{1,64}$/;

const MAX_LENGTH = 64;

/** FNV-1a over UTF-16 code units, as 8 hex digits: a short, stable fingerprint of a name. */
function fingerprint(text: string): string {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index++) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(16).padStart(8, '0');
}

/**
 * The Keel name of a server's tool: `prefix_name` (or `name`), valid for every vendor. Each
 * character outside `[a-zA-Z0-9_-]` becomes `_`; a name that changed this way, or is longer than 64
 * characters, ends with `_` and a fingerprint of the full original, so `a.b` and `a_b` stay
 * distinct and the same server name always gives the same Keel name.
 */
export function keelToolName(serverToolName: string, prefix?: string): string {
  const full = prefix === undefined || prefix === '' ? serverToolName : `${prefix}_${serverToolName}`;
  if (TOOL_NAME_PATTERN.test(full)) return full;
  const cleaned = full.replace(/[^a-zA-Z0-9_-]/g, '_');
  const suffix = `_${fingerprint(full)}`;
  return `${cleaned.slice(0, MAX_LENGTH - suffix.length)}${suffix}`;
}
