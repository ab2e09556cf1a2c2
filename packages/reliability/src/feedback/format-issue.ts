import { renderPath, type ValidationIssue } from '../validation/issue';
import type { IssueGroup } from './group-issues';
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
const pluralTypes: Readonly<Record<string, string>> = { 'list/array': 'lists/arrays', null: 'null values' };

/** Most example values quoted for a group of issues. */
const MAX_EXAMPLES = 2;
/** Most item indexes named for a group of issues. */
const MAX_INDEXES = 3;

/** A rendered path as quoted data: field names can come from model output, so they are escaped and capped. */
function quotedPath(path: string): string {
  const cut = path.length > MAX_QUOTED_CHARS ? `${path.slice(0, MAX_QUOTED_CHARS)}…` : path;
  return JSON.stringify(cut).slice(1, -1).replace(/'/g, "\\'");
}

/** How the received values read in a line: one value, or a few examples of a group's. */
interface Received {
  /** `string "12 EUR"`, or `strings like "12 EUR", "9 USD"`. */
  readonly typed: string;
  /** `"12 EUR"`, or `"12 EUR", "9 USD"`; empty when no value was received. */
  readonly values: string;
}

function receivedOf(issues: readonly ValidationIssue[]): Received {
  const present = issues.filter((issue) => issue.received !== undefined);
  if (issues.length === 1) {
    const value = (issues[0] as ValidationIssue).received;
    const type = describeType(value);
    const scalar = value !== null && typeof value !== 'object';
    return { typed: scalar ? `${type} ${quote(value)}` : type, values: value === undefined ? '' : quote(value) };
  }
  const examples: string[] = [];
  const seen = new Set<string>();
  const types = new Set<string>();
  for (const issue of present) {
    types.add(describeType(issue.received));
    const shown = quote(issue.received);
    if (examples.length < MAX_EXAMPLES && !seen.has(shown)) {
      seen.add(shown);
      examples.push(shown);
    }
  }
  const values = examples.join(', ');
  const [only] = types;
  const noun = types.size === 1 && only !== undefined ? (pluralTypes[only] ?? `${only}s`) : 'values';
  return { typed: values === '' ? noun : `${noun} like ${values}`, values };
}

function body(issue: ValidationIssue, received: Received): string {
  switch (issue.kind) {
    case 'missing':
      return 'required field is missing — provide a value';
    case 'extra':
      return 'unknown field — remove it';
    case 'type': {
      const expected = (issue.expected ?? 'another type').split(',').map((name) => typeNames[name] ?? name).join(' or ');
      return `expected ${expected}, got ${received.typed}`;
    }
    case 'format': {
      const format = issue.expected ?? 'format';
      return `expected ${formatExamples[format] ?? `${format} format`}, got ${received.values}`;
    }
    case 'enum':
      return `must be one of ${issue.expected ?? '(see schema)'}${received.values === '' ? '' : `, got ${received.values}`}`;
    default:
      return `${issue.kind === 'other' ? 'invalid' : issue.kind.replace('-', ' ')} — validator says ${quote(issue.message)}${received.values === '' ? '' : `, got ${received.values}`}`;
  }
}

function shapeOf(issue: ValidationIssue): string {
  return issue.shape === undefined ? '' : ` (expected shape of the object: ${issue.shape})`;
}

/** `items 0, 3, 7 and 27 more`: where a group's issues are, by array index. */
function indexesOf(issues: readonly ValidationIssue[]): string {
  const named = issues.slice(0, MAX_INDEXES).map((issue) => {
    const indexes = issue.path.filter((segment): segment is number => typeof segment === 'number');
    return indexes.length === 1 ? String(indexes[0]) : indexes.map((index) => `[${index}]`).join('');
  });
  const rest = issues.length - named.length;
  return `items ${named.join(', ')}${rest > 0 ? ` and ${rest} more` : ''}`;
}

/**
 * One feedback line for an issue, in prose a model acts on. Paths are quoted; received values are
 * quoted data; kinds without a fixed phrasing quote the validator's own message.
 */
export function formatIssue(issue: ValidationIssue): string {
  return `- '${quotedPath(renderPath(issue.path))}': ${body(issue, receivedOf([issue]))}${shapeOf(issue)}`;
}

/**
 * One feedback line for a group of issues of one kind at one schema location across array items:
 * `- 'items[*].price' (items 0, 3, 7 and 27 more): expected number, got strings like "12 EUR"`.
 */
export function formatIssueGroup(group: IssueGroup): string {
  const first = group.issues[0] as ValidationIssue;
  if (group.issues.length === 1) return formatIssue(first);
  return `- '${quotedPath(group.location)}' (${indexesOf(group.issues)}): ${body(first, receivedOf(group.issues))}${shapeOf(first)}`;
}
