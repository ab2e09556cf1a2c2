import { REDACTED, redactSecrets, secretsOf } from '@keel/provider';
import { AUTHORIZATION_SCHEME, SECRET_SHAPES } from './secret-shapes';

/**
 * Keeping secrets out of cassette files. Three nets, applied to everything a cassette writes:
 * values of fields whose name says they hold a credential (`authorization`, `x-api-key`,
 * `apiKey`, `token`, `password`..., and every value under `headers`); known secret values (the
 * ones given, and the environment's variables named like keys, tokens, secrets, passwords); and
 * text shaped like a credential (`SECRET_SHAPES`: vendor keys and tokens, JWTs, PEM private keys)
 * or an `Authorization` scheme's credentials (`bearer …`, in any case).
 */

/** Field names whose values are credentials. */
const SECRET_FIELD = /^(?:authorization|proxy-authorization|cookie|set-cookie|x-api-key|x-goog-api-key|api[-_]?key|api[-_]?secret|access[-_]?token|auth[-_]?token|refresh[-_]?token|id[-_]?token|session[-_]?token|token|secret|client[-_]?secret|(?:aws[-_]?)?secret[-_]?access[-_]?key|private[-_]?key|password|passwd|credentials?)$/i;

/** Environment variables named like credentials. */
const SECRET_VARIABLE = /(?:KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL)/i;

/** The values of the environment's credential-like variables (8 characters or more). */
export function environmentSecrets(environment: Readonly<Record<string, string | undefined>> = process.env): string[] {
  return Object.entries(environment)
    .filter(([name, value]) => SECRET_VARIABLE.test(name) && value !== undefined)
    .map(([, value]) => value as string);
}

/** A scrubber: the secrets it knows, and the provider's own redaction when it has one. */
export interface SecretScrubber {
  /** Scrubs one text. */
  text(value: string): string;
  /** Scrubs a JSON value: strings everywhere, and the values of credential-named fields. */
  value<T>(value: T): T;
}

/** Builds the scrubber of one cassette. */
export function secretScrubber(known: readonly string[], providerRedact?: (text: string) => string): SecretScrubber {
  const secrets = secretsOf(known);
  const text = (value: string): string => {
    let out = redactSecrets(value, secrets);
    if (providerRedact) {
      try {
        out = providerRedact(out);
      } catch {
        // A provider's redact that throws must not stop a recording; the other nets still apply.
      }
    }
    for (const shape of SECRET_SHAPES) out = out.replace(shape, REDACTED);
    return out.replace(AUTHORIZATION_SCHEME, `$1$2${REDACTED}`);
  };
  const walk = (value: unknown, hidden: boolean): unknown => {
    if (typeof value === 'string') return hidden ? REDACTED : text(value);
    if (Array.isArray(value)) return value.map((item) => walk(item, hidden));
    if (typeof value !== 'object' || value === null) return hidden && value !== null && value !== undefined ? REDACTED : value;
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) out[text(key)] = walk(item, hidden || SECRET_FIELD.test(key) || key.toLowerCase() === 'headers');
    return out;
  };
  return { text, value: <T>(value: T) => walk(value, false) as T };
}
