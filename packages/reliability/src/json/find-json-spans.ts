/** A balanced bracketed span of a text: `text.slice(start, end)`. */
export interface JsonSpan {
  readonly start: number;
  readonly end: number;
}

/** What {@link findJsonSpans} found. */
export interface SpanSearch {
  /** Balanced spans not inside another one, in text order. */
  readonly spans: readonly JsonSpan[];
  /** A JSON-like value that never closes: where it opens and the closers it lacks. */
  readonly truncated?: {
    readonly start: number;
    readonly missing: string;
    /** A quoted string opened here and never closed before the end of the text. */
    readonly openString?: number;
  };
  /** More top-level spans than the search's limit: it stopped there, `spans` holds those found. */
  readonly overflow?: true;
}

const objectStart = /[^\S]*(?:$|[}"'`,\u201c\u201d\u2018\u2019]|\/[/*]|\.\.\.|[\p{L}_$][\p{L}\p{N}_$]*\s*(?:$|[:"'`\u201c\u2018])|\d+(?:\.\d+)?\s*(?:$|:))/uy;

const stringEnds: Readonly<Record<string, string>> = { '"': '"', '\u201c': '\u201c\u201d', '\u201d': '\u201c\u201d', "'": "'", '\u2018': '\u2018\u2019', '\u2019': '\u2018\u2019' };

/**
 * True when the bracket at `index` opens what looks like JSON: a `{` followed by a property name
 * (quoted, a bare word or whole number then `:` or a value), `}`, a comment, `,` or `...` (so
 * LaTeX's `{$_{Ω}$rel}` and template braces in prose are not values), or a `[` followed by a JSON
 * value's first token (a literal, or bare words separated by commas, letters or any text outside ASCII).
 */
export function opensJson(text: string, index: number): boolean {
  if (text[index] === '{') {
    objectStart.lastIndex = index + 1;
    return objectStart.test(text);
  }
  const next = /\S/.exec(text.slice(index + 1, index + 64));
  if (next === null || /["'{}[\],\d\-\u201c\u2018]/.test(next[0])) return true;
  const rest = text.slice(index + 1 + next.index, index + 64 + next.index);
  // Literals, or bare words separated by commas ("[ONE, TWO]", for a schema to resolve); "[sic]" and "[Note: ...]" are prose.
  return /^(true|false|null|True|False|None)\b/.test(rest) || /^(?:[\p{L}_]|[^\p{ASCII}\s\u2026])(?:[\p{L}\p{N}_ ]|[^\p{ASCII}\s])*,/u.test(rest);
}

/**
 * Finds the top-level bracketed spans of a text in one pass, respecting quoted strings and
 * comments inside brackets (a `'` opens a string only where a value or key may start, so
 * apostrophes in prose do not). A closer that does not match the innermost opener is ignored. Linear in the text's length;
 * stops once it has found more than `limit` top-level spans.
 */
export function findJsonSpans(text: string, limit = Number.POSITIVE_INFINITY): SpanSearch {
  const openers: number[] = [];
  const spans: JsonSpan[] = [];
  let lastSignificant = '';
  let unclosed = -1;
  for (let index = 0; index < text.length; index++) {
    const char = text[index] as string;
    if (openers.length > 0) {
      // A comment inside a value ("// see {x}") holds no brackets of it; "http://" in prose is no comment.
      if (char === '/' && (text[index + 1] === '/' || text[index + 1] === '*') && text[index - 1] !== ':') {
        const end = text[index + 1] === '/' ? text.indexOf('\n', index + 2) : text.indexOf('*/', index + 2);
        if (end >= 0) {
          index = text[index + 1] === '/' ? end - 1 : end + 1;
          continue;
        }
      }
      const atValue = lastSignificant === '{' || lastSignificant === '[' || lastSignificant === ',' || lastSignificant === ':';
      const quoted = atValue && (char === '"' || char === "'" || char === '`') ? longString(text, index) : undefined;
      if (quoted !== undefined) {
        if (quoted < 0) {
          unclosed = index;
          break;
        }
        index = quoted - 1;
        lastSignificant = '"';
        continue;
      }
      const ends = char === '`' && atValue ? '`\u00b4' : stringEnds[char];
      if (ends !== undefined && (char === '"' || char === '\u201c' || char === '\u201d' || atValue)) {
        let at = index + 1;
        while (at < text.length && !ends.includes(text[at] as string)) at += text[at] === '\\' ? 2 : 1;
        if (at >= text.length) {
          unclosed = index;
          break;
        }
        index = at;
        lastSignificant = char;
        continue;
      }
    }
    if (char === '{' || char === '[') openers.push(index);
    else if ((char === '}' || char === ']') && openers.length > 0) {
      const start = openers[openers.length - 1] as number;
      if (text[start] === (char === '}' ? '{' : '[')) {
        openers.pop();
        while (spans.length > 0 && (spans[spans.length - 1] as JsonSpan).start > start) spans.pop();
        spans.push({ start, end: index + 1 });
        if (openers.length === 0 && spans.length > limit) return { spans, overflow: true };
      }
    }
    if (char !== ' ' && char !== '\n' && char !== '\r' && char !== '\t') lastSignificant = char;
  }
  for (let depth = 0; depth < openers.length; depth++) {
    const start = openers[depth] as number;
    if (!opensJson(text, start)) continue;
    const missing = openers
      .slice(depth)
      .reverse()
      .map((open) => (text[open] === '{' ? '}' : ']'))
      .join('');
    return { spans: spans.filter((span) => span.end <= start), truncated: { start, missing, ...(unclosed >= 0 ? { openString: unclosed } : {}) } };
  }
  // Spans side by side inside a bracket that never closes are counted too.
  return spans.length > limit ? { spans: spans.slice(0, limit + 1), overflow: true } : { spans };
}

/**
 * Where a Python triple-quoted string or a markdown code block starting at `index` ends (the index
 * after it), `-1` when it never closes, `undefined` when none starts there.
 */
function longString(text: string, index: number): number | undefined {
  const three = text.slice(index, index + 3);
  if (three === '"""' || three === "'''") {
    const close = text.indexOf(three, index + 3);
    return close < 0 ? -1 : close + 3;
  }
  if (three !== '```') return undefined;
  const close = /\r?\n[ \t]*```(?!`)/g;
  close.lastIndex = index + 3;
  const match = close.exec(text);
  return match ? match.index + match[0].length : -1;
}
