/**
 * Text shaped like a credential, wherever it appears (a prompt, a tool's result, an answer, an
 * error): each pattern matches the secret itself, replaced whole by `[redacted]`.
 */
export const SECRET_SHAPES: readonly RegExp[] = Object.freeze([
  // PEM private keys: the whole block (RSA, EC, OPENSSH, ENCRYPTED...), or to the end of a text cut inside it.
  /-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z0-9 ]*PRIVATE KEY-----|$)/g,
  // JSON Web Tokens: a header and a payload that are base64url JSON, and a signature.
  /\beyJ[A-Za-z0-9_-]{5,}\.eyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]*/g,
  // Anthropic, then OpenAI (project, service-account, admin keys too).
  /\bsk-ant-[A-Za-z0-9_-]{8,}/g,
  /\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}/g,
  // Stripe secret and restricted keys, and webhook secrets.
  /\b(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{10,}/g,
  /\bwhsec_[A-Za-z0-9+/=]{20,}/g,
  // AWS access key ids, long-term (AKIA) and temporary (ASIA), and a secret access key where it is named.
  /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g,
  /(?<=\b(?:aws_?)?secret_?access_?key["']?\s*[:=]\s*["']?)[A-Za-z0-9/+=]{40}(?![A-Za-z0-9/+=])/gi,
  // GitHub classic and fine-grained tokens, GitLab personal tokens.
  /\bgh[pousr]_[A-Za-z0-9]{20,}/g,
  /\bgithub_pat_[A-Za-z0-9_]{20,}/g,
  /\bglpat-[A-Za-z0-9_-]{20,}/g,
  // Slack tokens (bot, user, app, config...) and app-level tokens.
  /\bxox[a-z]-[A-Za-z0-9-]{10,}/g,
  /\bxapp-[A-Za-z0-9-]{10,}/g,
  // Google API keys and OAuth access tokens.
  /\bAIza[0-9A-Za-z_-]{35}/g,
  /\bya29\.[0-9A-Za-z_-]{20,}/g,
  // npm and Hugging Face tokens.
  /\bnpm_[A-Za-z0-9]{36}\b/g,
  /\bhf_[A-Za-z0-9]{30,}\b/g,
]);

/**
 * An `Authorization` scheme and its credentials, in any case (`Bearer`, `bearer`, `BASIC`): the
 * scheme is kept, the credentials go. Credentials are 8 characters or more with a digit, or 20 or
 * more: words ("basic information", "the bearer instrument") are prose, kept as they are.
 */
export const AUTHORIZATION_SCHEME = /\b(bearer|basic)(\s+)(?:(?=[A-Za-z0-9._~+/=-]*\d)[A-Za-z0-9._~+/=-]{8,}|[A-Za-z0-9._~+/=-]{20,})/gi;
