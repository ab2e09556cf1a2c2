let available: boolean | undefined;

/**
 * Whether this runtime may compile code from strings (`new Function`). Cloudflare Workers, Vercel
 * Edge, pages with a strict Content-Security-Policy and `node --disallow-code-generation-from-strings`
 * forbid it. Checked once and remembered.
 */
export function canGenerateCode(): boolean {
  if (available === undefined) {
    try {
      available = typeof new Function('return true') === 'function';
    } catch {
      available = false;
    }
  }
  return available;
}
