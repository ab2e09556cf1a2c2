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
  readonly truncated?: { readonly start: number; readonly missing: string };
  /** More top-level spans than the search's limit: it stopped there, `spans` holds those found. */
  readonly overflow?: true;
}

const stringEnds: Readonly<Record<string, string>> = { '"': '"', '\u201c': '\u201c\u201d', '\u201d': '\u201c\u201d', "'": "'", '\u2018': '\u2018\u2019', '\u2019': '\u2018\u2019' };

/**
 * True when the bracket at `index` opens what looks like JSON: every `{` (prose rarely has braces;
 * an object with bare keys still counts), or a `[` followed by a JSON value's first token.
 */
export function opensJson(text: string, index: number): boolean {
  if (text[index] === '{') return true;
  const next = /\S/.exec(text.slice(index + 1, index + 64));
  return next === null || /["'{}[\],\d\-\u201c\u2018]/.test(next[0]) || /^(true|false|null|True|False|None)\b/.test(text.slice(index + 1 + next.index, index + 7 + next.index));
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
      const ends = stringEnds[char];
      if (ends !== undefined && (char === '"' || char === '\u201c' || char === '\u201d' || /^[{[,:]$/.test(lastSignificant))) {
        let at = index + 1;
        while (at < text.length && !ends.includes(text[at] as string)) at += text[at] === '\\' ? 2 : 1;
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
    return { spans: spans.filter((span) => span.end <= start), truncated: { start, missing } };
  }
  return { spans };
}
