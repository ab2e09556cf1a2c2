/** Anything with a case-insensitive `get`, such as a fetch `Headers`. */
export interface HeaderReader {
  get(name: string): string | null;
}

/**
 * Reads the delay a server asked for before the next attempt, in milliseconds: `retry-after-ms`
 * (milliseconds) first, then `retry-after` as seconds or as an HTTP date. Returns `undefined`
 * when neither header is present or readable. A date in the past gives `0`.
 */
export function parseRetryAfter(headers: HeaderReader | undefined, now: number = Date.now()): number | undefined {
  if (headers === undefined) return undefined;
  const milliseconds = headers.get('retry-after-ms');
  if (milliseconds !== null && milliseconds.trim() !== '') {
    const value = Number(milliseconds);
    if (Number.isFinite(value) && value >= 0) return value;
  }
  const retryAfter = headers.get('retry-after');
  if (retryAfter === null || retryAfter.trim() === '') return undefined;
  const seconds = Number(retryAfter);
  if (Number.isFinite(seconds)) return seconds >= 0 ? seconds * 1000 : undefined;
  const date = Date.parse(retryAfter);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}
