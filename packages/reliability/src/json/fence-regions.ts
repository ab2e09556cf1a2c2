import type { FenceBody } from './find-fences';
import { findJsonSpans, type JsonSpan } from './find-json-spans';

/** A part of a reply to search for values: a fence's body, or the prose around fences. */
export interface Region {
  readonly start: number;
  readonly end: number;
  readonly fence: boolean;
  /** The fence's language tag (empty for prose and untagged fences). */
  readonly tag: string;
}

/**
 * The fence bodies of a reply and the prose between them, in text order. A fence inside a
 * bracketed value (a string of the answer that holds a code block) is part of that value, not a
 * fence. Linear in the text's length; `limit` bounds the bracketed values looked at.
 */
export function regionsAround(text: string, fences: readonly FenceBody[], limit: number): Region[] {
  const spans: readonly JsonSpan[] = findJsonSpans(text, limit).spans;
  const regions: Region[] = [];
  let from = 0;
  let next = 0;
  for (const fence of fences) {
    while (next < spans.length && (spans[next] as JsonSpan).end <= fence.open) next++;
    const span = spans[next];
    if (span !== undefined && span.start < fence.open) continue;
    if (fence.open > from) regions.push({ start: from, end: fence.open, fence: false, tag: '' });
    regions.push({ start: fence.start, end: fence.end, fence: true, tag: fence.tag });
    from = fence.close;
  }
  if (from < text.length) regions.push({ start: from, end: text.length, fence: false, tag: '' });
  return regions;
}
