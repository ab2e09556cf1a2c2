import type { ValidationFailure } from '../errors/validation-failure';
import { formatPath, type ValidationIssue } from '../validation/issue';

/** Issue kinds whose meaning is in the message, not in the kind: the message is part of the signature. */
const OPAQUE_KINDS: ReadonlySet<ValidationIssue['kind']> = new Set(['other', 'union']);

/**
 * A validator message with its values masked: numbers become `#` and quoted text `"…"`, so the
 * same complaint about another value reads the same, and a different complaint reads differently.
 */
function maskMessage(message: string): string {
  return message
    .replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\\n]|\\.)*'|`[^`]*`|“[^”]*”|‘[^’]*’/g, '"…"')
    .replace(/[-+]?\d+(?:[.,]\d+)*(?:e[-+]?\d+)?/gi, '#')
    .replace(/\s+/g, ' ')
    .trim();
}

/** One issue's part of a signature: path and kind, plus the masked message for opaque kinds and the branches of a union. */
function issuePart(issue: ValidationIssue): string {
  const base = `${formatPath(issue.path)}|${issue.kind}`;
  if (issue.branches && issue.branches.length > 0) return `${base}<${issue.branches.map(issuePart).sort().join(',')}>`;
  return OPAQUE_KINDS.has(issue.kind) ? `${base}|${issue.expected ?? ''}|${maskMessage(issue.message)}` : base;
}

/**
 * A stable signature of a failure: two failures with the same signature are the same mistake. It
 * tells apart the stage (`json-parse`, `schema-validate`, `rule-check`), the parse defect, and
 * every issue by path and kind; for issues without a structured kind (`other`: opaque parsers,
 * refinements, custom messages, a rule's rejection; `union`: the folded branch errors) the
 * expectation and message count too, with
 * numbers and quoted strings masked. So the same mistake with another value is still the same,
 * and a different message is progress, whatever the validator.
 */
export function failureSignature(failure: Pick<ValidationFailure, 'stage' | 'issues' | 'defect' | 'message'>): string {
  if (failure.stage === 'json-parse') return `json-parse|${failure.defect ?? maskMessage(failure.message)}`;
  return `${failure.stage}|${failure.issues.map(issuePart).sort().join(';')}`;
}
