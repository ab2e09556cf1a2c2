/** Anything with a case-insensitive `get`, such as a fetch `Headers`. */
export interface HeaderReader {
  get(name: string): string | null;
}

/** Response headers as a plain record (the AI SDK's `responseHeaders`), names in any case. */
export type HeaderRecord = Readonly<Record<string, string | undefined>>;

/** One header's value (`name` in lower case): by `get`, or by the first key of a record that matches without regard to case. */
export function headerOf(headers: HeaderReader | HeaderRecord, name: string): string | undefined {
  if (typeof headers.get === 'function') return (headers as HeaderReader).get(name) ?? undefined;
  for (const [key, value] of Object.entries(headers)) if (key.toLowerCase() === name && typeof value === 'string') return value;
  return undefined;
}

/**
 * For provider authors: the delay a server asked for before the next attempt, in milliseconds,
 * from the response headers (a fetch `Headers` or a plain record): `retry-after-ms`
 * (milliseconds) first, then `retry-after` as seconds or as an HTTP date. Returns `undefined`
 * when neither header is present or readable, or `headers` is not an object. A date in the past
 * gives `0`.
 */
export function parseRetryAfter(headers: HeaderReader | HeaderRecord | undefined, now: number = Date.now()): number | undefined {
  if (typeof headers !== 'object' || headers === null) return undefined;
  const milliseconds = headerOf(headers, 'retry-after-ms');
  if (milliseconds !== undefined && milliseconds.trim() !== '') {
    const value = Number(milliseconds);
    if (Number.isFinite(value) && value >= 0) return value;
  }
  const retryAfter = headerOf(headers, 'retry-after');
  if (retryAfter === undefined || retryAfter.trim() === '') return undefined;
  const seconds = Number(retryAfter);
  if (Number.isFinite(seconds)) return seconds >= 0 ? seconds * 1000 : undefined;
  const date = Date.parse(retryAfter);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}
