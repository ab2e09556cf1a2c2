/** Marker placed where an echoed output was cut. */
export const TRUNCATION_MARKER = '[…truncated for length…]';

/** Rough characters per token, used to turn token budgets into character caps without a tokenizer. */
export const CHARS_PER_TOKEN = 4;

/**
 * Caps echoed model output at about `maxTokens` tokens, keeping its head and tail (where JSON
 * errors usually are) around a truncation marker.
 */
export function truncateEcho(text: string, maxTokens: number): string {
  const maxChars = Math.max(0, Math.floor(maxTokens * CHARS_PER_TOKEN));
  if (text.length <= maxChars) return text;
  if (maxChars <= TRUNCATION_MARKER.length) return text.slice(0, maxChars);
  const keep = Math.max(0, maxChars - TRUNCATION_MARKER.length);
  const head = Math.ceil(keep * 0.75);
  const tail = keep - head;
  return `${text.slice(0, head)}${TRUNCATION_MARKER}${tail > 0 ? text.slice(-tail) : ''}`;
}
