/** The closed set of issue kinds every validator's errors are normalised into. */
export type IssueKind =
  | 'missing'
  | 'type'
  | 'extra'
  | 'enum'
  | 'format'
  | 'too-small'
  | 'too-big'
  | 'pattern'
  | 'union'
  | 'other';

/** A path into a JSON value: property names and array indexes. */
export type IssuePath = readonly (string | number)[];

/** One problem found by a validator, in one shape whatever the validator was. */
export interface ValidationIssue {
  /** Where the problem is, as segments; empty for the root value. */
  readonly path: IssuePath;
  /** The same path printed, as `entries[0].confidence`; `(root)` for the root value. */
  readonly pathText: string;
  /** What kind of problem it is. */
  readonly kind: IssueKind;
  /** What was expected: a type name, a format, the allowed values, a bound. */
  readonly expected?: string;
  /** The value found there (absent for a missing field). */
  readonly received?: unknown;
  /** The validator's own message. */
  readonly message: string;
  /** For a missing or extra property: the compact expected shape of the object holding it. */
  readonly shape?: string;
  /** For a `union` issue: the issues of its branches, folded into it (what stuck detection tells apart). */
  readonly branches?: readonly ValidationIssue[];
}

/** Renders a path as `items[0].name` as it is, control characters included (callers that quote it escape it). */
export function renderPath(path: IssuePath): string {
  if (path.length === 0) return '(root)';
  let out = '';
  for (const segment of path) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else out += out === '' ? segment : `.${segment}`;
  }
  return out;
}

/** True for control characters and line separators, never placed raw in a message. */
const isControl = (code: number) => code < 0x20 || code === 0x7f || code === 0x2028 || code === 0x2029;

/** Escapes control characters as JSON does (`\n`, `\u0000`), so text from a model cannot break a log line. */
export function escapeControl(text: string): string {
  let out = '';
  let from = 0;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (!isControl(code)) continue;
    const character = text[index] as string;
    const escaped = JSON.stringify(character).slice(1, -1);
    out += text.slice(from, index) + (escaped.length > 1 ? escaped : `\\u${code.toString(16).padStart(4, '0')}`);
    from = index + 1;
  }
  return from === 0 ? text : out + text.slice(from);
}

/**
 * Renders a path as `items[0].name`; the root is `(root)`. Control characters in keys (which can
 * come from model output) are escaped, so the path is always one line.
 */
export function formatPath(path: IssuePath): string {
  return escapeControl(renderPath(path));
}

/** Turns a JSON Pointer (`/items/0/name`) into an issue path (`['items', 0, 'name']`). */
export function parsePointer(pointer: string): (string | number)[] {
  if (pointer === '') return [];
  return pointer
    .slice(1)
    .split('/')
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((part) => (/^(0|[1-9]\d*)$/.test(part) ? Number(part) : part));
}
