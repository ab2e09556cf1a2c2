/** Longest quoted value placed in one feedback line, in characters. */
export const MAX_QUOTED_CHARS = 120;

/**
 * Renders model output or validator text as quoted data: JSON-encoded (so quotes, newlines and
 * control characters are escaped and nothing reads as an instruction) and capped in length. A
 * number, boolean or null is shown as itself (`42`, never `"42"`, which would read as a string):
 * it holds no text that could read as an instruction.
 */
export function quote(value: unknown, maxChars = MAX_QUOTED_CHARS): string {
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint' || value === null) return String(value);
  let text: string;
  try {
    text = typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
  } catch {
    text = String(value);
  }
  const cut = text.length > maxChars ? `${text.slice(0, maxChars)}…` : text;
  return JSON.stringify(cut);
}

/** `string`, `number`, `list/array`, `object` or `null`: what a value is, in the words of the feedback. */
export function describeType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'list/array';
  if (Number.isInteger(value)) return 'integer';
  return typeof value;
}
