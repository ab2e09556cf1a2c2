const ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;', '`': '&#96;' };

/** Text made safe for HTML content and double- or single-quoted attribute values: model text is data, never markup. */
export function escapeHtml(value: unknown): string {
  return String(value).replace(/[&<>"'`]/g, (character) => ESCAPES[character] as string);
}
