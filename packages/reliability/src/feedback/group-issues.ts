import { formatPath, type IssuePath, type ValidationIssue } from '../validation/issue';

/** Issues of one kind and expectation at one schema location. */
export interface IssueGroup {
  /** The rendered path, with every array index as `[*]` when the group has several issues (`items[*].price`). */
  readonly location: string;
  readonly issues: readonly ValidationIssue[];
}

/** Renders a path with each array index as `[*]`. */
function wildcardPath(path: IssuePath): string {
  if (path.length === 0) return '(root)';
  let out = '';
  for (const segment of path) {
    if (typeof segment === 'number') out += '[*]';
    else out += out === '' ? segment : `.${segment}`;
  }
  return out;
}

/**
 * Groups issues of the same kind and expectation at the same schema location across array items,
 * keeping the order in which each group first appears. Linear in the number of issues.
 */
export function groupIssues(issues: readonly ValidationIssue[]): IssueGroup[] {
  const groups = new Map<string, ValidationIssue[]>();
  for (const issue of issues) {
    let key = `${issue.kind}\u0000${issue.expected ?? ''}`;
    for (const segment of issue.path) key += typeof segment === 'number' ? '\u0000#' : `\u0000.${segment}`;
    const group = groups.get(key);
    if (group) group.push(issue);
    else groups.set(key, [issue]);
  }
  const out: IssueGroup[] = [];
  for (const members of groups.values()) {
    const first = members[0] as ValidationIssue;
    out.push({ location: members.length === 1 ? formatPath(first.path) : wildcardPath(first.path), issues: members });
  }
  return out;
}
