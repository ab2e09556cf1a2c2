/** A header of a plain record, its name matched without regard to case. */
function header(headers: Readonly<Record<string, string | undefined>>, name: string): string | undefined {
  for (const [key, value] of Object.entries(headers)) if (key.toLowerCase() === name && typeof value === 'string') return value;
  return undefined;
}

/**
 * The delay a server asked for before the next attempt, in milliseconds, from the response
 * headers the AI SDK keeps on an `APICallError`: `retry-after-ms` first, then `retry-after` as
 * seconds or an HTTP date (a date in the past gives 0). `undefined` when neither is readable.
 */
export function retryAfterFromHeaders(headers: Readonly<Record<string, string | undefined>> | undefined, now: number = Date.now()): number | undefined {
  if (headers === undefined || headers === null || typeof headers !== 'object') return undefined;
  const milliseconds = header(headers, 'retry-after-ms');
  if (milliseconds !== undefined && milliseconds.trim() !== '') {
    const value = Number(milliseconds);
    if (Number.isFinite(value) && value >= 0) return value;
  }
  const retryAfter = header(headers, 'retry-after');
  if (retryAfter === undefined || retryAfter.trim() === '') return undefined;
  const seconds = Number(retryAfter);
  if (Number.isFinite(seconds)) return seconds >= 0 ? seconds * 1000 : undefined;
  const date = Date.parse(retryAfter);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** Longest error body read for a retry delay; a larger one is not searched. */
const MAX_BODY = 65_536;

/**
 * The delay in a Google RPC error body (`error.details[]` of type `google.rpc.RetryInfo`,
 * `retryDelay: "37s"` or `"1.5s"`), which Gemini sends on a 429 instead of a `Retry-After`
 * header. `undefined` when the body has none.
 */
export function retryAfterFromGoogleBody(body: unknown): number | undefined {
  if (typeof body !== 'string' || body.length > MAX_BODY || !body.includes('RetryInfo')) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return undefined;
  }
  const error = (Array.isArray(parsed) ? parsed[0] : parsed) as { error?: { details?: unknown } } | null;
  const details = error?.error?.details;
  if (!Array.isArray(details)) return undefined;
  for (const detail of details) {
    if (typeof detail !== 'object' || detail === null) continue;
    const { '@type': type, retryDelay } = detail as Record<string, unknown>;
    if (typeof type !== 'string' || !type.endsWith('google.rpc.RetryInfo') || typeof retryDelay !== 'string') continue;
    const match = /^(\d+(?:\.\d+)?)s$/.exec(retryDelay.trim());
    if (match !== null) return Math.round(Number(match[1]) * 1000);
  }
  return undefined;
}
