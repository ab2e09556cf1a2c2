/** What a redacted secret is replaced with. */
export const REDACTED = '[redacted]';

/** Secrets shorter than this are not searched for: they would redact ordinary words. */
const MIN_SECRET_LENGTH = 8;

/** The secrets worth searching for, longest first (so a key containing another is replaced whole). */
export function secretsOf(candidates: readonly unknown[]): readonly string[] {
  const secrets = candidates.filter((candidate): candidate is string => typeof candidate === 'string' && candidate.length >= MIN_SECRET_LENGTH);
  return [...new Set(secrets)].sort((a, b) => b.length - a.length);
}

/** Replaces every occurrence of every secret in `text` with `[redacted]`. */
export function redactSecrets(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) if (out.includes(secret)) out = out.split(secret).join(REDACTED);
  return out;
}
