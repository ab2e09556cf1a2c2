import { formatPath, type IssueKind, type IssuePath, type ValidationIssue } from './issue';
import { isMissingAt, valueAt } from './value-at';

/** An issue as Standard Schema (and Zod) report it; extra fields are read when present. */
export interface ForeignIssue {
  readonly message: string;
  readonly path?: ReadonlyArray<PropertyKey | { readonly key: PropertyKey }> | undefined;
  readonly code?: unknown;
  readonly expected?: unknown;
  readonly format?: unknown;
  readonly values?: unknown;
  readonly keys?: unknown;
  /** Zod 4's `invalid_union`: the issues of each branch, their paths relative to the union. */
  readonly errors?: unknown;
}

const kindByCode: Readonly<Record<string, IssueKind>> = {
  invalid_type: 'type',
  invalid_value: 'enum',
  invalid_enum_value: 'enum',
  invalid_literal: 'enum',
  invalid_format: 'format',
  invalid_string: 'format',
  too_small: 'too-small',
  too_big: 'too-big',
  invalid_union: 'union',
};

const formatNames: Readonly<Record<string, string>> = { datetime: 'date-time' };

function toPath(path: ForeignIssue['path']): IssuePath {
  return (path ?? []).map((segment) => {
    const key = typeof segment === 'object' && segment !== null ? segment.key : segment;
    return typeof key === 'number' ? key : String(key);
  });
}

function expectedOf(issue: ForeignIssue, kind: IssueKind): string | undefined {
  if (kind === 'enum' && Array.isArray(issue.values)) return issue.values.map((value) => JSON.stringify(value)).join(', ');
  if (kind === 'format' && typeof issue.format === 'string') return formatNames[issue.format] ?? issue.format;
  if (typeof issue.expected === 'string') return issue.expected;
  return undefined;
}

/** The issues of a union's branches (Zod 4's `errors`), at paths from the root. */
function branchIssues(issue: ForeignIssue, path: IssuePath, data: unknown): ValidationIssue[] {
  if (!Array.isArray(issue.errors)) return [];
  const nested: ForeignIssue[] = [];
  for (const branch of issue.errors as unknown[]) {
    if (!Array.isArray(branch)) continue;
    for (const inner of branch as ForeignIssue[]) {
      if (typeof inner !== 'object' || inner === null || typeof inner.message !== 'string') continue;
      nested.push({ ...inner, path: [...path, ...toPath(inner.path)] });
    }
  }
  return issuesFromStandard(nested, data);
}

/**
 * Normalises Standard Schema issues (Zod 3/4, Valibot, ArkType...). Missing fields are detected
 * from the data itself, so they are reported as `missing` whatever the library's wording;
 * Zod's `unrecognized_keys` becomes one `extra` issue per key.
 */
export function issuesFromStandard(foreign: readonly ForeignIssue[], data: unknown): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  for (const issue of foreign) {
    const path = toPath(issue.path);
    if (issue.code === 'unrecognized_keys' && Array.isArray(issue.keys)) {
      for (const key of issue.keys) {
        const keyPath = [...path, String(key)];
        issues.push({ path: keyPath, pathText: formatPath(keyPath), kind: 'extra', received: valueAt(data, keyPath), message: issue.message });
      }
      continue;
    }
    if (path.length > 0 && isMissingAt(data, path)) {
      issues.push({ path, pathText: formatPath(path), kind: 'missing', message: issue.message });
      continue;
    }
    const kind = (typeof issue.code === 'string' ? kindByCode[issue.code] : undefined) ?? 'other';
    const expected = expectedOf(issue, kind);
    const branches = kind === 'union' ? branchIssues(issue, path, data) : [];
    issues.push({
      path,
      pathText: formatPath(path),
      kind,
      ...(expected === undefined ? {} : { expected }),
      received: valueAt(data, path),
      message: issue.message,
      ...(branches.length > 0 ? { branches } : {}),
    });
  }
  return issues;
}
