import { dereference, type OutputUnit, type Schema, validate } from '@cfworker/json-schema';
import { keywordWording, kindByKeyword } from './ajv-message';
import { checkSchema } from './check-schema';
import { FORMAT_MARKER, InterpretedFormats } from './interpreted-formats';
import { unitWording } from './interpreted-wording';
import { interpreterCopy } from './interpreter-copy';
import { formatPath, type IssuePath, parsePointer, type ValidationIssue } from './issue';
import { guardedCheck } from './validate-output';
import type { SchemaValidator } from './schema-validator';
import { valueAt } from './value-at';

/** Keywords that only say "a subschema failed": their nested units carry the real problems. */
const WRAPPERS: ReadonlySet<string> = new Set([
  'properties',
  'patternProperties',
  'items',
  'prefixItems',
  'additionalItems',
  'unevaluatedItems',
  'unevaluatedProperties',
  'dependentSchemas',
  '$ref',
  '$recursiveRef',
  'allOf',
]);

const UNIONS: ReadonlySet<string> = new Set(['anyOf', 'oneOf']);
/** Keywords whose units only lead to nested ones: never an issue of their own inside a union branch. */
const STRUCTURE: ReadonlySet<string> = new Set(['properties', 'patternProperties', 'items', 'prefixItems', 'additionalProperties', 'additionalItems']);

type SchemaNode = Readonly<Record<string, unknown>>;
type Lookup = Readonly<Record<string, Schema | boolean>>;

function decodeSegment(segment: string): string {
  return decodeURIComponent(segment).replace(/~1/g, '/').replace(/~0/g, '~');
}

/** An instance location (`#/items/0`) as an issue path (`['items', 0]`). */
function pathOf(instanceLocation: string): IssuePath {
  return parsePointer(instanceLocation.slice(1).split('/').map(decodeURIComponent).join('/'));
}

/** The schema node a keyword location points into (following `$ref`), or an empty node. */
function nodeAt(root: Schema, lookup: Lookup, keywordLocation: string): SchemaNode {
  const segments = keywordLocation.slice(2).split('/').slice(0, -1);
  let node: unknown = root;
  for (const raw of segments) {
    if (typeof node !== 'object' || node === null) return {};
    const current = node as Schema;
    node = raw === '$ref' && typeof current.__absolute_ref__ === 'string' ? lookup[current.__absolute_ref__] : current[decodeSegment(raw)];
  }
  return typeof node === 'object' && node !== null ? (node as SchemaNode) : {};
}

/** Keywords ajv checks before `format` on the same node. */
const BEFORE_FORMAT: ReadonlySet<string> = new Set(['maximum', 'minimum', 'exclusiveMaximum', 'exclusiveMinimum', 'multipleOf', 'maxLength', 'minLength', 'pattern']);

/** Moves each failed format marker after the failed number and string keywords of its node, where ajv reports `format`. */
function formatsLast(units: readonly OutputUnit[], root: Schema, lookup: Lookup): OutputUnit[] {
  const ordered = [...units];
  for (let index = ordered.length - 1; index >= 0; index--) {
    const unit = ordered[index] as OutputUnit;
    if (unit.keyword !== 'not' || typeof nodeAt(root, lookup, unit.keywordLocation)[FORMAT_MARKER] !== 'string') continue;
    const nodeLocation = unit.keywordLocation.replace(/\/allOf\/\d+\/not$/, '');
    let last = index;
    ordered.forEach((other, at) => {
      if (other.instanceLocation === unit.instanceLocation && BEFORE_FORMAT.has(other.keyword) && other.keywordLocation === `${nodeLocation}/${other.keyword}`) last = Math.max(last, at);
    });
    if (last > index) ordered.splice(last, 0, ...ordered.splice(index, 1));
  }
  return ordered;
}

/** The issue of one failed keyword unit, worded as ajv words it. */
function unitIssue(unit: OutputUnit, root: Schema, lookup: Lookup, data: unknown): ValidationIssue {
  const path = pathOf(unit.instanceLocation);
  const node = nodeAt(root, lookup, unit.keywordLocation);
  const received = valueAt(data, path);
  // A failed format marker (see InterpretedFormats) is a failed `format`.
  const format = unit.keyword === 'not' ? node[FORMAT_MARKER] : undefined;
  const keyword = typeof format === 'string' ? 'format' : unit.keyword;
  const wording = typeof format === 'string' ? keywordWording('format', { format }) : unitWording(unit, node, received);
  const kind = kindByKeyword[keyword] ?? 'other';
  return { path, pathText: formatPath(path), kind, message: wording.message, ...(wording.expected === undefined ? {} : { expected: wording.expected }), received };
}

/** The issue of a missing required property. */
function requiredIssue(unit: OutputUnit): ValidationIssue {
  const missing = /^Instance does not have required property "(.*)"\.$/s.exec(unit.error)?.[1] ?? '';
  const path = [...pathOf(unit.instanceLocation), missing];
  return { path, pathText: formatPath(path), kind: 'missing', message: `must have required property '${missing}'` };
}

/**
 * Turns an interpretive validator's output units into issues identical to ajv's for the same
 * schema and value: same paths, kinds, expected values, messages and order.
 */
function issuesFromUnits(units: readonly OutputUnit[], root: Schema, lookup: Lookup, data: unknown): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  /** Where an object's own issues go: before its properties' issues, as ajv reports them. */
  const insertAt = new Map<string, number>();
  const failedUnions: string[] = [];
  const tooLong = new Set<string>();

  const cursor = (target: string | undefined) => (target === undefined ? issues.length : (insertAt.get(target) ?? issues.length));
  const emit = (issue: ValidationIssue, target: string | undefined) => {
    if (target === undefined) {
      issues.push(issue);
      return;
    }
    const index = cursor(target);
    issues.splice(index, 0, issue);
    for (const [location, at] of insertAt) if (at > index || location === target) insertAt.set(location, at + 1);
    if (!insertAt.has(target)) insertAt.set(target, index + 1);
  };
  const keywordIssue = (unit: OutputUnit) => unitIssue(unit, root, lookup, data);
  const unionIssue = (unit: OutputUnit, index: number): ValidationIssue => {
    const prefix = `${unit.keywordLocation}/`;
    const branches = units.slice(index + 1).filter((candidate) => candidate.keywordLocation.startsWith(prefix) && !WRAPPERS.has(candidate.keyword));
    if (branches.length > 0 && branches.every((branch) => branch.keyword === 'const')) {
      const values = branches.map((branch) => JSON.stringify(nodeAt(root, lookup, branch.keywordLocation).const));
      const path = pathOf(unit.instanceLocation);
      return { path, pathText: formatPath(path), kind: 'enum', expected: values.join(', '), received: valueAt(data, path), message: `must be one of ${values.join(', ')}` };
    }
    // The branches' own failures, folded into the union issue as ajv's are (stuck detection tells them apart).
    const own = branches.filter((branch) => !STRUCTURE.has(branch.keyword)).map((branch) => (branch.keyword === 'required' ? requiredIssue(branch) : keywordIssue(branch)));
    const issue = keywordIssue(unit);
    return own.length > 0 ? { ...issue, branches: own } : issue;
  };

  const walk = (from: number, to: number, target: string | undefined, additionalOf: string | undefined) => {
    for (let index = from; index < to; index++) {
      const unit = units[index] as OutputUnit;
      if (failedUnions.some((location) => unit.keywordLocation.startsWith(`${location}/`))) continue;
      if (unit.keyword === 'additionalProperties') {
        // The units the additional property produced follow it; ajv reports them before the properties'.
        const prefix = `${unit.keywordLocation}/`;
        let end = index + 1;
        if (units[end]?.keyword === 'false') end++;
        else while (end < to && (units[end] as OutputUnit).keywordLocation.startsWith(prefix)) end++;
        walk(index + 1, end, unit.instanceLocation, unit.instanceLocation);
        index = end - 1;
        continue;
      }
      const tuple = unit.keyword === 'additionalItems' ? nodeAt(root, lookup, unit.keywordLocation).items : unit.keyword === 'items' ? nodeAt(root, lookup, unit.keywordLocation).prefixItems : undefined;
      if (Array.isArray(tuple) && units[index + 1]?.keyword === 'false') {
        // Items past a closed tuple (draft-07 `additionalItems: false`, 2020-12 `items: false`): one
        // issue for the whole array, as ajv reports it, before its items' issues.
        while (units[index + 1]?.keyword === 'false' && (units[index + 1] as OutputUnit).instanceLocation.startsWith(`${unit.instanceLocation}/`)) index++;
        if (tooLong.has(unit.instanceLocation)) continue;
        tooLong.add(unit.instanceLocation);
        const path = pathOf(unit.instanceLocation);
        emit({ path, pathText: formatPath(path), kind: 'other', message: `must NOT have more than ${tuple.length} items`, expected: `${unit.keyword} ${tuple.length}`, received: valueAt(data, path) }, unit.instanceLocation);
        continue;
      }
      if (unit.keyword === 'properties' || unit.keyword === 'patternProperties' || unit.keyword === 'items' || unit.keyword === 'prefixItems') {
        if (!insertAt.has(unit.instanceLocation)) insertAt.set(unit.instanceLocation, cursor(target));
        continue;
      }
      if (WRAPPERS.has(unit.keyword)) continue;
      if (unit.keyword === 'false' && additionalOf !== undefined) {
        const path = pathOf(unit.instanceLocation);
        emit({ path, pathText: formatPath(path), kind: 'extra', message: 'must NOT have additional properties', received: valueAt(data, path) }, target);
        continue;
      }
      if (UNIONS.has(unit.keyword)) {
        emit(unionIssue(unit, index), target);
        failedUnions.push(unit.keywordLocation);
        // A `false` branch reports at the value's location, not under the union: it is folded too.
        const prefix = `${unit.keywordLocation}/`;
        while (index + 1 < to) {
          const next = units[index + 1] as OutputUnit;
          if (!next.keywordLocation.startsWith(prefix) && !(next.keyword === 'false' && `${next.instanceLocation}/`.startsWith(`${unit.instanceLocation}/`))) break;
          index++;
        }
        continue;
      }
      if (unit.keyword === 'required') {
        emit(requiredIssue(unit), target);
        continue;
      }
      emit(keywordIssue(unit), target);
    }
  };
  walk(0, units.length, undefined, undefined);
  return issues;
}


/**
 * A validator for a JSON Schema (TypeBox schemas are JSON Schema) that interprets the schema
 * instead of compiling it (`@cfworker/json-schema`, draft-07), for runtimes that forbid code
 * generation. Its issues match {@link ajvValidator}'s: same kinds, paths, wording and feedback.
 * @throws {InvalidSchemaError} for what ajv's strict mode refuses: unknown keywords, formats, types.
 */
export function interpretiveValidator<T>(schema: object | boolean): SchemaValidator<T> {
  const { dialect } = checkSchema(schema);
  const jsonSchema = (typeof schema === 'boolean' ? (schema ? {} : { not: {} }) : JSON.parse(JSON.stringify(schema))) as Record<string, unknown>;
  // The interpreter annotates the schema it is given; it gets a copy of its own.
  const own = interpreterCopy(schema, dialect) as Schema;
  const formats = new InterpretedFormats(own);
  const lookup = dereference(own);
  const description = typeof jsonSchema.description === 'string' ? jsonSchema.description : undefined;
  // The latest check's result, which its issues are read from.
  let last: ReturnType<typeof validate> | undefined;
  return {
    jsonSchema,
    ...(description === undefined ? {} : { description }),
    pure: true,
    validate: guardedCheck<T>(
      (value) => {
        formats.prepare(value);
        last = validate(value, own, dialect === '2020-12' ? '2020-12' : '7', lookup, false);
        return last.valid;
      },
      (value) => issuesFromUnits(formatsLast(last?.errors ?? [], own, lookup), own, lookup, value),
    ),
  };
}
