/** What a redacted secret reads as in the trace file. */
export const REDACTED = '[redacted]';

/**
 * Shapes of credentials: vendor API keys (Anthropic, OpenAI, Google, GitHub, Slack, AWS access key
 * ids), bearer tokens and PEM private keys. Each is matched inside a JSON line, so a shape never
 * spans a quote or a backslash.
 */
const SHAPES = [
  /sk-ant-[A-Za-z0-9_-]{8,}/,
  /sk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}/,
  /AIza[0-9A-Za-z_-]{30,}/,
  /gh[pousr]_[A-Za-z0-9]{20,}/,
  /github_pat_[A-Za-z0-9_]{20,}/,
  /xox[abprs]-[A-Za-z0-9-]{10,}/,
  /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/,
  /(?<=\b[Bb]earer\s{1,4})[A-Za-z0-9._~+/-]{12,}=*/,
  /-----BEGIN [A-Z ]*PRIVATE KEY-----.*?-----END [A-Z ]*PRIVATE KEY-----/,
].map((shape) => shape.source);

/** Environment variables whose values are taken as secrets (`ANTHROPIC_API_KEY`, `DB_PASSWORD`, `GITHUB_TOKEN`...). */
const SECRET_NAME = /(?:KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIALS?)$/i;
/** Shorter values are too likely to occur in ordinary text to be replaced. */
const MIN_SECRET_LENGTH = 8;

/**
 * Text every shape above begins with: a line holding none of them (nearly every line) is left
 * alone after one quick scan, instead of trying each shape at each position. `sk-` is followed by
 * what its shapes need, so that Keel's own words (`ask-model`, `task-…`) do not set off the full scan.
 */
const SHAPE_ANCHORS = /sk-(?:ant-|proj-|svcacct-|admin-|[A-Za-z0-9_-]{20})|AIza|gh[pousr]_|github_pat_|xox[abprs]-|AKIA|ASIA|[Bb]earer|PRIVATE KEY/;

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The values of the environment's secret-named variables (8 characters or more). */
export function secretsFromEnvironment(environment: Readonly<Record<string, string | undefined>>): string[] {
  return Object.entries(environment)
    .filter(([name, value]) => SECRET_NAME.test(name) && value !== undefined && value.length >= MIN_SECRET_LENGTH)
    .map(([, value]) => value as string);
}

/**
 * A function that replaces every secret in JSON lines with {@link REDACTED}: the credential
 * shapes above, and each of `secrets` exactly (as it appears inside a JSON string). Secrets
 * shorter than 8 characters are left out: they would redact ordinary words. No shape matches
 * across a line break, so lines stay whole.
 */
export function secretRedactor(secrets: readonly string[]): (lines: string) => string {
  const exact = [...new Set(secrets)]
    .filter((secret) => secret.length >= MIN_SECRET_LENGTH)
    // Longest first, so a secret that contains another is replaced whole.
    .sort((a, b) => b.length - a.length)
    .map((secret) => escapeRegExp(JSON.stringify(secret).slice(1, -1)));
  const pattern = new RegExp([...exact, ...SHAPES].join('|'), 'g');
  const literals = exact.length === 0 ? [] : [...new Set(secrets)].filter((secret) => secret.length >= MIN_SECRET_LENGTH).map((secret) => JSON.stringify(secret).slice(1, -1));
  return (lines) => (SHAPE_ANCHORS.test(lines) || literals.some((secret) => lines.includes(secret)) ? lines.replace(pattern, REDACTED) : lines);
}
