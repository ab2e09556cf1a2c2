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
