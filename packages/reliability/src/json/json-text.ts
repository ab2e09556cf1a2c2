/** A change to the text (a comma, a colon, a string rewritten as JSON): remove `remove` characters at `at`, then insert `insert`. */
export interface TextEdit {
  readonly at: number;
  readonly remove: number;
  readonly insert: string;
}

/** JSON's one-character escapes, and `\'`, which JavaScript and Python read as `'`. */
export const ESCAPES: Readonly<Record<string, string>> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', "'": "'" };


/** Unicode spaces JSON does not allow between tokens. */
export function isOddWhitespace(code: number): boolean {
  return code === 0xa0 || code === 0x180e || (code >= 0x2000 && code <= 0x200b) || code === 0x202f || code === 0x205f || code === 0x3000 || code === 0xfeff;
}

/** `'x'` for messages, the character JSON-encoded. */
export function shown(char: string | undefined): string {
  return char === undefined ? 'the end of the text' : `'${JSON.stringify(char).slice(1, -1)}'`;
}

/** True when a comment's text holds an ellipsis (`...` or `…`): it stands for content left out. */
export function elides(comment: string): boolean {
  return comment.includes('...') || comment.includes('\u2026');
}

/**
 * Decodes JSON's backslash escapes in `text`, or `undefined` when it holds one `refused` matches or
 * one JSON does not know.
 */
export function decodeEscapes(text: string, refused?: RegExp): string | undefined {
  if (!text.includes('\\')) return text;
  if (refused?.test(text)) return undefined;
  let out = '';
  let from = 0;
  for (let at = text.indexOf('\\'); at >= 0; at = text.indexOf('\\', from)) {
    out += text.slice(from, at);
    const next = text[at + 1];
    if (next === 'u') {
      const hex = text.slice(at + 2, at + 6);
      if (!/^[0-9a-fA-F]{4}$/.test(hex)) return undefined;
      out += String.fromCharCode(Number.parseInt(hex, 16));
      from = at + 6;
      continue;
    }
    const decoded = next === undefined ? undefined : ESCAPES[next];
    if (decoded === undefined) return undefined;
    out += decoded;
    from = at + 2;
  }
  return out + text.slice(from);
}

/** True when the text holds a control character (below U+0020), which JSON does not allow raw in a string. */
export function hasControl(text: string): boolean {
  for (let index = 0; index < text.length; index++) if (text.charCodeAt(index) < 0x20) return true;
  return false;
}

/** Applies comma edits (in text order) in one pass. */
export function applyEdits(text: string, edits: readonly TextEdit[]): string {
  if (edits.length === 0) return text;
  const parts: string[] = [];
  let from = 0;
  for (const edit of edits) {
    parts.push(text.slice(from, edit.at), edit.insert);
    from = edit.at + edit.remove;
  }
  parts.push(text.slice(from));
  return parts.join('');
}
