import type { ValidationIssue } from '@keel/reliability';
import { formatPath, type IssuePath } from '@keel/reliability/internal';
import { RE2JS } from 're2js';
import safeRegex from 'safe-regex2';

/** One step from a schema to a subschema whose value is known: a property, or every item of an array. */
type Step = { readonly property: string } | { readonly items: true };

/** A pattern taken out of a schema, to run on a linear-time engine where it applies. */
export interface PatternCheck {
  readonly steps: readonly Step[];
  readonly source: string;
  readonly engine: RE2JS;
}

const isPlainObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Subschema keywords whose subschemas apply to other values (or conditionally): a pattern there is not checked here. */
const ELSEWHERE_SINGLE = ['additionalProperties', 'additionalItems', 'contains', 'propertyNames', 'not', 'if', 'then', 'else', 'unevaluatedItems', 'unevaluatedProperties'];
const ELSEWHERE_LISTS = ['anyOf', 'oneOf', 'prefixItems'];
const ELSEWHERE_MAPS = ['patternProperties', 'definitions', '$defs', 'dependencies', 'dependentSchemas'];

/** True when a JavaScript engine may take exponential time on it (nested or overlapping quantifiers). */
function risky(pattern: string): boolean {
  try {
    new RegExp(pattern, 'u');
  } catch {
    // Not a pattern at all: the validator refuses it when it compiles the schema.
    return false;
  }
  return !safeRegex(pattern);
}

/** JavaScript's `\s`: RE2's is ASCII only. */
const JS_SPACE = '\\t\\n\\v\\f\\r \\x{a0}\\x{1680}\\x{2000}-\\x{200a}\\x{2028}\\x{2029}\\x{202f}\\x{205f}\\x{3000}\\x{feff}';
/** JavaScript's `.` without the `s` flag: RE2's excludes only `\n`. */
const JS_DOT = '[^\\n\\r\\x{2028}\\x{2029}]';

/**
 * The pattern in RE2's syntax with JavaScript's meaning, or undefined where the two differ in a way
 * not rewritten here (`\S` inside a class): RE2JS's own translation (Unicode escapes), then `\s`,
 * `\S` and `.` spelled out.
 */
function re2Source(javascript: string): string | undefined {
  const pattern = RE2JS.translateRegExp(javascript);
  let out = '';
  let inClass = false;
  for (let index = 0; index < pattern.length; index++) {
    const char = pattern[index] as string;
    if (char === '\\') {
      const next = pattern[index + 1] ?? '';
      index++;
      if (next === 's') out += inClass ? JS_SPACE : `[${JS_SPACE}]`;
      else if (next === 'S') {
        if (inClass) return undefined;
        out += `[^${JS_SPACE}]`;
      } else out += `\\${next}`;
      continue;
    }
    if (inClass) {
      if (char === ']') inClass = false;
      out += char;
      continue;
    }
    if (char === '[') {
      inClass = true;
      out += char;
      // A `]` right after `[` or `[^` is a member in RE2 but ends an empty class in JavaScript.
      if (pattern[index + 1] === '^') out += pattern[++index];
      if (pattern[index + 1] === ']') return undefined;
      continue;
    }
    out += char === '.' ? JS_DOT : char;
  }
  return out;
}

/** The pattern on RE2 (linear time in the input), with JavaScript's meaning; undefined where that cannot be had. */
function linearEngine(pattern: string): RE2JS | undefined {
  try {
    new RegExp(pattern, 'u');
    const source = re2Source(pattern);
    return source === undefined ? undefined : RE2JS.compile(source);
  } catch {
    return undefined;
  }
}

/**
 * Takes the patterns of a schema out (changing it in place) to run on RE2, whose time is linear in
 * the input, so no pattern (`^(a+)+$`, `^(x|xx)+$`) can block the event loop. Patterns whose values
 * are known (at the root, under properties, array items, `allOf`) move when RE2 can read them with
 * JavaScript's meaning; the others stay with the validator when safe-regex2 finds them safe. A
 * risky one that cannot move (inside `anyOf`, a definition; backreferences, lookaround) is a
 * problem: the schema is refused, never run on a backtracking engine.
 */
export function takeRiskyPatterns(schema: Record<string, unknown>): { readonly checks: readonly PatternCheck[] } | { readonly problem: string } {
  const checks: PatternCheck[] = [];
  let problem: string | undefined;
  const visit = (node: unknown, steps: readonly Step[] | undefined, depth: number): void => {
    if (!isPlainObject(node) || problem !== undefined || depth > 64) return;
    if (typeof node.pattern === 'string') {
      // Where its values are known, every pattern RE2 can read runs there: a heuristic such as
      // safe-regex2 misses overlapping alternatives like `^(x|xx)+$`.
      const engine = steps === undefined ? undefined : linearEngine(node.pattern);
      if (steps !== undefined && engine !== undefined) {
        checks.push({ steps, source: node.pattern, engine });
        delete node.pattern;
      } else if (risky(node.pattern)) {
        problem = `the pattern ${JSON.stringify(node.pattern)} can take exponential time to match (nested or overlapping repetition), and ${steps === undefined ? 'it sits where Keel cannot check it apart' : 'it uses features a linear-time engine does not have'}`;
        return;
      }
    }
    if (isPlainObject(node.patternProperties)) {
      const bad = Object.keys(node.patternProperties).find(risky);
      if (bad !== undefined) problem = `the property name pattern ${JSON.stringify(bad)} can take exponential time to match`;
    }
    if (isPlainObject(node.properties)) for (const [name, sub] of Object.entries(node.properties)) visit(sub, steps && [...steps, { property: name }], depth + 1);
    if (isPlainObject(node.items)) visit(node.items, steps && [...steps, { items: true }], depth + 1);
    else if (Array.isArray(node.items)) for (const sub of node.items) visit(sub, undefined, depth + 1);
    if (Array.isArray(node.allOf)) for (const sub of node.allOf) visit(sub, steps, depth + 1);
    for (const keyword of ELSEWHERE_SINGLE) visit(node[keyword], undefined, depth + 1);
    for (const keyword of ELSEWHERE_LISTS) if (Array.isArray(node[keyword])) for (const sub of node[keyword]) visit(sub, undefined, depth + 1);
    for (const keyword of ELSEWHERE_MAPS) if (isPlainObject(node[keyword])) for (const sub of Object.values(node[keyword])) visit(sub, undefined, depth + 1);
  };
  visit(schema, [], 0);
  return problem === undefined ? { checks } : { problem };
}

/** The values a check's steps lead to in `value`, with their paths. */
function valuesAt(value: unknown, steps: readonly Step[]): { readonly value: unknown; readonly path: IssuePath }[] {
  let found: { value: unknown; path: IssuePath }[] = [{ value, path: [] }];
  for (const step of steps) {
    const next: { value: unknown; path: IssuePath }[] = [];
    for (const { value: current, path } of found) {
      if ('property' in step) {
        if (isPlainObject(current) && Object.hasOwn(current, step.property)) next.push({ value: current[step.property], path: [...path, step.property] });
      } else if (Array.isArray(current)) {
        current.forEach((item, index) => next.push({ value: item, path: [...path, index] }));
      }
    }
    found = next;
  }
  return found;
}

/** The issues of the checks taken out of a schema, on a value (strings only: a pattern applies to strings). */
export function patternIssues(checks: readonly PatternCheck[], value: unknown): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  for (const check of checks) {
    for (const found of valuesAt(value, check.steps)) {
      if (typeof found.value !== 'string' || check.engine.test(found.value)) continue;
      issues.push({ path: found.path, pathText: formatPath(found.path), kind: 'pattern', message: `must match pattern "${check.source}"`, expected: check.source, received: found.value });
    }
  }
  return issues;
}
