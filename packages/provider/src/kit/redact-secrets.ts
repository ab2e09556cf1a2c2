/**
 * Secret redaction for provider authors: an adapter passes its API key (and any other credential
 * it holds) through {@link secretsOf}, then runs every error message and cause it builds through
 * {@link redactSecrets}, so a key a server echoes back never reaches logs, traces or run results.
 */

/** What a redacted secret is replaced with. */
export const REDACTED = '[redacted]';

/** Secrets shorter than this are not searched for: they would redact ordinary words. */
const MIN_SECRET_LENGTH = 8;

/**
 * The secrets worth searching for, longest first (so a key containing another is replaced whole):
 * the strings among `candidates` of at least 8 characters, each once.
 */
export function secretsOf(candidates: readonly unknown[]): readonly string[] {
  const secrets = candidates.filter((candidate): candidate is string => typeof candidate === 'string' && candidate.length >= MIN_SECRET_LENGTH);
  return [...new Set(secrets)].sort((left, right) => right.length - left.length);
}

/** Replaces every occurrence of every secret in `text` with `[redacted]`. */
export function redactSecrets(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) if (out.includes(secret)) out = out.split(secret).join(REDACTED);
  return out;
}
