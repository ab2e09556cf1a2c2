/** A markdown code fence: its body is `text.slice(start, end)`, the whole fence `text.slice(open, close)`. */
export interface FenceBody {
  readonly open: number;
  readonly start: number;
  readonly end: number;
  readonly close: number;
  /** The language tag after the opening backticks (`json`, `python`), empty when none. */
  readonly tag: string;
}

const FENCE = '```';
/** Longest opening line read (three backticks, the language tag and an info string), in characters. */
const MAX_OPENING_LINE = 256;
/** Most later closing lines tried for one fence whose body is cut short (a bound on the work). */
const MAX_EXTENSIONS = 8;
/** A line that closes a fence: three backticks alone on it (indentation and trailing spaces aside). */
const closing = /\n[ \t]*```[ \t]*(?=\r?\n|$)/g;

/**
 * Finds closed markdown code fences (```` ```json ```` … ```` ``` ````) in one pass: an opening
 * fence is three backticks, an optional language tag, an optional info string after a space (as
 * CommonMark: `title="x"`, no backticks) and a line break; it closes at the next line
 * that holds three backticks and nothing else (as in markdown), so a string value holding ```` ``` ````
 * does not close it; with `complete`, a body it finds cut short extends to a later closing line
 * that completes it (at most 8 tried). Linear in the text's length.
 */
export function findFences(text: string, complete?: (start: number, end: number) => boolean): FenceBody[] {
  const bodies: FenceBody[] = [];
  let from = 0;
  while (true) {
    const open = text.indexOf(FENCE, from);
    if (open < 0) break;
    // The language tag, then an info string (`title="x"`, `{.json}`) to the end of the line: not the body.
    const tag = /^([A-Za-z0-9_+#.-]*)(?:[ \t][^`\r\n]*)?\r?\n/.exec(text.slice(open + 3, open + 3 + MAX_OPENING_LINE));
    if (!tag) {
      from = open + 3;
      continue;
    }
    const start = open + 3 + tag[0].length;
    closing.lastIndex = start - 1;
    const line = closing.exec(text);
    if (!line) break;
    let close = line.index + line[0].indexOf(FENCE);
    // A body cut short at a line of three backticks that is part of a string of the value (a code
    // block inside the answer) goes on to a later closing line that completes it, if one does.
    if (complete && !complete(start, close)) {
      for (let tries = 0; tries < MAX_EXTENSIONS; tries++) {
        const later = closing.exec(text);
        if (!later) break;
        const end = later.index + later[0].indexOf(FENCE);
        if (complete(start, end)) {
          close = end;
          break;
        }
      }
    }
    bodies.push({ open, start, end: close, close: close + 3, tag: (tag[1] as string).toLowerCase() });
    from = close + 3;
  }
  return bodies;
}
