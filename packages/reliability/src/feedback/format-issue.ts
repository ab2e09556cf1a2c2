import { renderPath, type ValidationIssue } from '../validation/issue';
import { describeType, MAX_QUOTED_CHARS, quote } from './quote';

const formatExamples: Readonly<Record<string, string>> = {
  'date-time': "ISO date-time (e.g. '2026-05-03T00:00:00Z')",
  date: "ISO date (e.g. '2026-05-03')",
  time: "ISO time (e.g. '09:00:00Z')",
  email: "email address (e.g. 'name@example.com')",
  uri: "absolute URI (e.g. 'https://example.com/path')",
  url: "absolute URL (e.g. 'https://example.com/path')",
  uuid: "UUID (e.g. '123e4567-e89b-12d3-a456-426614174000')",
  ipv4: "IPv4 address (e.g. '192.0.2.1')",
};

const typeNames: Readonly<Record<string, string>> = { array: 'list/array', object: 'object (JSON object)' };

function got(issue: ValidationIssue): string {
  const type = describeType(issue.received);
  if (issue.received === null || typeof issue.received === 'object') return type;
  return `${type} ${quote(issue.received)}`;
}

/** The rendered path as quoted data: field names can come from model output, so they are escaped and capped. */
function quotedPath(issue: ValidationIssue): string {
  const path = renderPath(issue.path);
  const cut = path.length > MAX_QUOTED_CHARS ? `${path.slice(0, MAX_QUOTED_CHARS)}…` : path;
  return JSON.stringify(cut).slice(1, -1).replace(/'/g, "\\'");
}

/**
 * One feedback line for an issue, in prose a model acts on. Paths are quoted; received values are
 * quoted data; kinds without a fixed phrasing quote the validator's own message.
 */
export function formatIssue(issue: ValidationIssue): string {
  const where = `- '${quotedPath(issue)}'`;
  switch (issue.kind) {
    case 'missing':
      return `${where}: required field is missing — provide a value`;
    case 'extra':
      return `${where}: unknown field — remove it`;
    case 'type': {
      const expected = (issue.expected ?? 'another type').split(',').map((name) => typeNames[name] ?? name).join(' or ');
      return `${where}: expected ${expected}, got ${got(issue)}`;
    }
    case 'format': {
      const format = issue.expected ?? 'format';
      return `${where}: expected ${formatExamples[format] ?? `${format} format`}, got ${quote(issue.received)}`;
    }
    case 'enum':
      return `${where}: must be one of ${issue.expected ?? '(see schema)'}${issue.received === undefined ? '' : `, got ${quote(issue.received)}`}`;
    default:
      return `${where}: ${issue.kind === 'other' ? 'invalid' : issue.kind.replace('-', ' ')} — validator says ${quote(issue.message)}${
        issue.received === undefined ? '' : `, got ${quote(issue.received)}`
      }`;
  }
}
