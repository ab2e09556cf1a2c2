import type { JsonDefect, JsonRepair } from './repair-names';
import { decodeEscapes, ESCAPES, hasControl, shown, type TextEdit } from './json-text';

/** A failed read: the defect, why, and where. */
export interface ScanFailure {
  readonly ok: false;
  readonly defect: JsonDefect;
  readonly message: string;
  readonly position: number;
}

/** What the string readers see of a scan: the text, the position, and where repairs and edits are recorded. */
export interface StringCursor {
  readonly text: string;
  readonly length: number;
  index: number;
  readonly repairs: Set<JsonRepair>;
  readonly edits: TextEdit[];
  fail(defect: JsonDefect, message: string, position?: number): ScanFailure;
}

/** Each opening quote and the quotes that close it. */
export const CLOSERS: Readonly<Record<string, string>> = { '"': '"', "'": "'", '\u201c': '\u201c\u201d', '\u201d': '\u201c\u201d', '\u2018': '\u2018\u2019', '\u2019': '\u2018\u2019' };

/**
 * Reads a quoted string at `index` in any of the forms read losslessly: JSON's, single or smart
 * quotes, Python's triple quotes, a JavaScript backtick string without `${`, and (for a value) a
 * markdown code block. Forms `jsonrepair` does not read are rewritten here as JSON strings.
 */
export function readQuoted(cursor: StringCursor, value: boolean): string | ScanFailure {
  const { text } = cursor;
  const start = cursor.index;
  let read: string | ScanFailure;
  let repair: JsonRepair;
  if (text.startsWith('"""', start) || text.startsWith("'''", start)) {
    read = readTriple(cursor);
    repair = 'triple-quotes';
  } else if (text.startsWith('```', start)) {
    if (!value) return cursor.fail('syntax', "a code block cannot be a property name");
    read = readCodeBlock(cursor);
    repair = 'code-block-string';
  } else if (text[start] === '`') {
    read = readString(cursor, '`', '`\u00b4');
    repair = 'backtick-quotes';
  } else return readString(cursor);
  if (typeof read !== 'string') return read;
  cursor.repairs.add(repair);
  cursor.edits.push({ at: start, remove: cursor.index - start, insert: JSON.stringify(read) });
  return read;
}

/** Reads a Python triple-quoted string (`"""…"""` or `'\'\'…'\'\'`): its text as written, JSON's escapes only. */
function readTriple(cursor: StringCursor): string | ScanFailure {
  const { text } = cursor;
  const quote = text.slice(cursor.index, cursor.index + 3);
  const close = text.indexOf(quote, cursor.index + 3);
  if (close < 0) return cursor.fail('truncated', 'the text ends inside a string (its closing quotes are missing)', cursor.length);
  const body = text.slice(cursor.index + 3, close);
  // "\/" is "/" in JSON but "\\/" in Python: only escapes both languages read alike are taken.
  const decoded = decodeEscapes(body, /\\[^"'\\nrtbfu]/);
  if (decoded === undefined) return cursor.fail('syntax', 'a triple-quoted string holds an escape Python and JSON read differently', cursor.index);
  if (hasControl(body)) cursor.repairs.add('control-characters');
  cursor.index = close + 3;
  return decoded;
}

/**
 * Reads a markdown code block used as a string value: the lines between the opening line
 * (three backticks and an optional language tag) and a line that starts with three backticks.
 */
function readCodeBlock(cursor: StringCursor): string | ScanFailure {
  const { text } = cursor;
  const open = /^```[\w+#.-]*[ \t]*\r?\n/.exec(text.slice(cursor.index, cursor.index + 64));
  if (!open) return cursor.fail('syntax', 'three backticks open a code block only when a line break follows them (and an optional language tag)');
  const bodyStart = cursor.index + open[0].length;
  const closer = /\r?\n[ \t]*```(?!`)/g;
  closer.lastIndex = bodyStart - 1;
  const match = closer.exec(text);
  if (!match) return cursor.fail('truncated', 'the text ends inside a code block (its closing backticks are missing)', cursor.length);
  const body = text.slice(bodyStart, Math.max(bodyStart, match.index));
  cursor.index = match.index + match[0].length;
  return body;
}

/** Reads a quoted string at `index`; returns its decoded content or a failure. */
export function readString(cursor: StringCursor, opener = cursor.text[cursor.index] as string, ends = CLOSERS[opener] as string): string | ScanFailure {
  const { text, length } = cursor;
  if (opener === "'") cursor.repairs.add('single-quotes');
  else if (opener !== '"' && opener !== '`') cursor.repairs.add('smart-quotes');
  let value = '';
  let chunk = cursor.index + 1;
  for (let at = cursor.index + 1; at < length; at++) {
    const char = text[at] as string;
    if (ends.includes(char)) {
      value += text.slice(chunk, at);
      cursor.index = at + 1;
      return value;
    }
    // A template literal's "${…}" is code, not text.
    if (opener === '`' && char === '$' && text[at + 1] === '{') return cursor.fail('syntax', "a backtick string holds '${', code rather than text", at);
    if (char === '\\') {
      value += text.slice(chunk, at);
      const next = text[at + 1];
      if (next === undefined) break;
      if (next === 'u') {
        const hex = text.slice(at + 2, at + 6);
        if (!/^[0-9a-fA-F]{4}$/.test(hex)) {
          return at + 6 > length ? cursor.fail('truncated', 'the text ends inside a string', at) : cursor.fail('syntax', `invalid escape '\\u${hex}' in a string`, at);
        }
        value += String.fromCharCode(Number.parseInt(hex, 16));
        at += 5;
      } else {
        const decoded = opener === '`' && next === '`' ? '`' : ESCAPES[next];
        // "it\'s" in a JSON string: JavaScript and Python read it as "it's".
        if (next === "'" && opener !== "'") cursor.repairs.add('escapes');
        if (decoded === undefined) return cursor.fail('syntax', `invalid escape ${shown(`\\${next}`)} in a string`, at);
        value += decoded;
        at += 1;
      }
      chunk = at + 1;
    } else if (char.charCodeAt(0) < 0x20) {
      cursor.repairs.add('control-characters');
    }
  }
  return cursor.fail('truncated', 'the text ends inside a string (its closing quote is missing)', length);
}
