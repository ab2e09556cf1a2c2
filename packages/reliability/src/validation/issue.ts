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
  /** Where the problem is; empty for the root value. */
  readonly path: IssuePath;
  /** What kind of problem it is. */
  readonly kind: IssueKind;
  /** What was expected: a type name, a format, the allowed values, a bound. */
  readonly expected?: string;
  /** The value found there (absent for a missing field). */
  readonly received?: unknown;
  /** The validator's own message. */
  readonly message: string;
}

/** Renders a path as `items[0].name`; the root is `(root)`. */
export function formatPath(path: IssuePath): string {
  if (path.length === 0) return '(root)';
  let out = '';
  for (const segment of path) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else out += out === '' ? segment : `.${segment}`;
  }
  return out;
}

/**
 * A stable signature of an issue set: sorted `path|kind` pairs. Two attempts with the same
 * signature failed the same way, whatever the validator's wording or the values.
 */
export function issueSignature(issues: readonly ValidationIssue[]): string {
  return issues
    .map((issue) => `${formatPath(issue.path)}|${issue.kind}`)
    .sort()
    .join(';');
}
