/** A markdown code fence: its body is `text.slice(start, end)`, the whole fence `text.slice(open, close)`. */
export interface FenceBody {
  readonly open: number;
  readonly start: number;
  readonly end: number;
  readonly close: number;
}

const FENCE = '```';

/**
 * Finds closed markdown code fences (```` ```json ```` … ```` ``` ````) in one pass: an opening
 * fence is three backticks, an optional language tag and a line break; it closes at the next three
 * backticks. Linear in the text's length.
 */
export function findFences(text: string): FenceBody[] {
  const bodies: FenceBody[] = [];
  let from = 0;
  while (true) {
    const open = text.indexOf(FENCE, from);
    if (open < 0) break;
    const tag = /^[A-Za-z0-9_-]*[ \t]*\r?\n/.exec(text.slice(open + 3, open + 3 + 64));
    if (!tag) {
      from = open + 3;
      continue;
    }
    const start = open + 3 + tag[0].length;
    const close = text.indexOf(FENCE, start);
    if (close < 0) break;
    bodies.push({ open, start, end: close, close: close + 3 });
    from = close + 3;
  }
  return bodies;
}
