import { numberLoss } from '../json/exact-number';
import { BARE_MARK } from '../json/scan-lenient-json';
import { resolveLocalReference } from '../local-reference';
import type { IssuePath } from './issue';
import { matchName } from './match-name';

/**
 * Which unique, lossless fix a coercion made:
 * - `number-from-string`: `"50"` where a number is (never `"USD 50"`, never digits a number cannot hold,
 *   never `"1.000"` or `"12.345"`, which are thousands where a dot groups digits).
 * - `boolean-from-string`: `"true"`/`"false"` where a boolean is.
 * - `string-from-number`: a number where only a string is, as its digits were written (`1.0` is `"1.0"`).
 * - `single-to-array`: one value where an array is, as its one item.
 * - `array-to-single`: an array of one item where the schema allows no array, as that item.
 * - `enum-case`: a string naming exactly one allowed value once trimmed or compared case-insensitively (see `matchName`).
 * - `enum-unquoted`: bare text (`{size: TWO}`) that names exactly one allowed value.
 * - `key-renamed`: a property name naming exactly one of the schema's by surrounding spaces or case (see `matchName`).
 * - `null-to-absent`: `null` for an optional property whose schema excludes `null`, removed.
 */
type CoercionKind =
  | 'number-from-string'
  | 'boolean-from-string'
  | 'string-from-number'
  | 'single-to-array'
  | 'array-to-single'
  | 'enum-case'
  | 'enum-unquoted'
  | 'key-renamed'
  | 'null-to-absent';

/** One schema-guided fix: where, what it was, what it became (`to` is absent for a removed `null`). */
export interface Coercion {
  readonly path: IssuePath;
  readonly kind: CoercionKind;
  readonly from: unknown;
  readonly to?: unknown;
}

/** Settings of {@link coerceToSchema}. */
export interface CoerceOptions {
  /**
   * The number literal at `path` as the model wrote it (`1.0`, `1e3`): a number becomes a string
   * only through it, so its digits are kept. Without it, numbers are never turned into strings.
   */
  readonly literalAt?: (path: IssuePath) => string | undefined;
  /**
   * The value holds bare text the parser marked (see `BARE_MARK`), each to resolve to the one
   * allowed value it names. Only a parser sets it: a string the model wrote is never read as one.
   */
  readonly bare?: boolean;
  /** The schema the walk started from, to resolve local `$ref`s against (set by `coerceToSchema`). */
  readonly root?: unknown;
}

type Schema = Readonly<Record<string, unknown>>;

const numeric = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

/** Digits a dot may group in thousands (`1.000`, `12.345`): a thousand where the dot groups digits, one where it is a decimal point. */
const dotGrouped = /^-?[1-9]\d{0,2}\.\d{3}$/;

/**
 * Characters that may separate several items in one string: ASCII and full-width commas,
 * semicolons and bars, the ideographic and Arabic commas, bullets, and every line break or control
 * character (`\r`, U+2028, U+2029, U+0085, tabs).
 */
const separatorCharacters = /[,;|\u0085\u2028\u2029\u3001\uff0c\uff1b\uff5c\u060c\u061b\ufe50\ufe51\ufe54\u2022\u00b7]/;

function mayHoldSeveral(text: string): boolean {
  if (separatorCharacters.test(text)) return true;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
}

function isSchema(value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function typesOf(schema: Schema): readonly string[] | undefined {
  const type = schema.type;
  if (typeof type === 'string') return [type];
  return Array.isArray(type) ? (type as string[]) : undefined;
}

function branchesOf(schema: Schema): readonly unknown[] | undefined {
  const branches = schema.anyOf ?? schema.oneOf;
  return Array.isArray(branches) ? branches : undefined;
}

/** The allowed values of an `enum`, a `const`, or a union whose branches are all constants. */
function allowedValues(schema: Schema): readonly unknown[] | undefined {
  if (Array.isArray(schema.enum)) return schema.enum;
  if ('const' in schema) return [schema.const];
  const branches = branchesOf(schema);
  if (branches && branches.length > 0 && branches.every((branch) => isSchema(branch) && 'const' in branch)) {
    return branches.map((branch) => (branch as Schema).const);
  }
  return undefined;
}

/** Keywords whose meaning for `null` is not read here: a schema holding one may allow it. */
const opaque = ['$ref', '$dynamicRef', 'allOf', 'not', 'if', 'then', 'else', 'dependentSchemas'];

/**
 * True only when the schema certainly refuses `null`: a `type` without `null`, an `enum`/`const`
 * without it, a union each of whose branches refuses it, or a local `$ref` (resolved in `root`)
 * to a schema that refuses it. `allOf`, `{}` or any schema not read here may allow it, so a `null`
 * there is never removed.
 */
function excludesNull(schema: Schema, root: unknown, depth = 0): boolean {
  if (depth > 16) return false;
  if ('$ref' in schema) {
    const target = resolveLocalReference(root, schema.$ref);
    if (isSchema(target) && excludesNull(target, root, depth + 1)) return true;
  }
  if (opaque.some((keyword) => keyword in schema)) return false;
  const allowed = Array.isArray(schema.enum) || 'const' in schema ? allowedValues(schema) : undefined;
  if (allowed) return !allowed.includes(null);
  const branches = branchesOf(schema);
  if (branches) return branches.every((branch) => isSchema(branch) && excludesNull(branch, root, depth + 1));
  const types = typesOf(schema);
  return types !== undefined && !types.includes('null');
}

function hasType(value: unknown, types: readonly string[]): boolean {
  if (value === null) return types.includes('null');
  if (Array.isArray(value)) return types.includes('array');
  if (typeof value === 'number') return types.includes('number') || (types.includes('integer') && Number.isInteger(value));
  return types.includes(typeof value);
}

/**
 * The one allowed value `text` names (see {@link matchName}); allowed values that are not strings
 * are never named, and none is when one of them is written as `text` (`"true"` where `true` and
 * `"True"` are allowed may be either).
 */
function matchAllowed(text: string, allowed: readonly unknown[]): string | undefined {
  if (allowed.some((option) => typeof option !== 'string' && JSON.stringify(option) === text.trim())) return undefined;
  return matchName(text, allowed.filter((option): option is string => typeof option === 'string'));
}

/** True for a string standing for bare text the model wrote (see `BARE_MARK`). */
export function isBare(value: unknown): value is string {
  return typeof value === 'string' && value.startsWith(BARE_MARK);
}

/** True when bare text is left anywhere in the value: it cannot be used as it is. */
export function holdsBare(value: unknown): boolean {
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const next = pending.pop();
    if (isBare(next)) return true;
    if (Array.isArray(next)) pending.push(...next);
    else if (typeof next === 'object' && next !== null) pending.push(...Object.values(next));
  }
  return false;
}

/**
 * Applies the fixes a schema makes unique and lossless, as a lax-mode parser does (see
 * {@link CoercionKind} for each). Only places whose value the schema rejects are touched; the
 * input is never mutated (changed containers are copied). Walks the value once, following the
 * schema's `properties`, map entries (`additionalProperties`, `patternProperties`) and `items`; a union only where every branch reads
 * the value alike (`$ref`, `allOf` and the like are left to validation).
 */
export function coerceToSchema(value: unknown, schema: unknown, options: CoerceOptions = {}): { readonly value: unknown; readonly coercions: readonly Coercion[] } {
  const coercions: Coercion[] = [];
  const coerced = isSchema(schema) ? coerce(value, schema, [], coercions, { ...options, root: schema }, false) : value;
  return { value: coerced, coercions };
}

function coerce(value: unknown, schema: Schema, path: IssuePath, out: Coercion[], options: CoerceOptions, inList: boolean): unknown {
  const allowed = allowedValues(schema);
  const bare = options.bare === true;
  if (bare && isBare(value)) {
    const text = value.slice(BARE_MARK.length);
    const match = allowed ? matchAllowed(text, allowed) : undefined;
    if (match === undefined) return value;
    out.push({ path, kind: 'enum-unquoted', from: text, to: match });
    return match;
  }
  if (allowed && typeof value === 'string' && !allowed.includes(value)) {
    const match = matchAllowed(value, allowed);
    if (match === undefined) return value;
    out.push({ path, kind: 'enum-case', from: value, to: match });
    return match;
  }
  const types = typesOf(schema) ?? (allowed?.every((option) => typeof option === 'string') ? ['string'] : undefined);
  const branches = branchesOf(schema);
  if (!types && !allowed && branches) return coerceUnion(value, branches, path, out, options, inList);
  if (!types) return value;
  let current = value;
  if (!hasType(current, types) && !(allowed && allowed.includes(current))) {
    // Never a number that cannot hold the digits as written ("9007199254740993" would lose its last
    // digit), nor digits a dot may group ("1.000" is 1000 where a dot groups thousands).
    if (typeof current === 'string' && (types.includes('number') || types.includes('integer')) && numeric.test(current.trim()) && !dotGrouped.test(current.trim()) && numberLoss(current.trim()) === undefined) {
      const number = Number(current.trim());
      if (hasType(number, types)) {
        out.push({ path, kind: 'number-from-string', from: current, to: number });
        return number;
      }
    }
    if (typeof current === 'string' && types.includes('boolean') && (current === 'true' || current === 'false')) {
      out.push({ path, kind: 'boolean-from-string', from: current, to: current === 'true' });
      return current === 'true';
    }
    if (typeof current === 'number' && types.includes('string')) {
      const literal = options.literalAt?.(path);
      if (literal !== undefined && Number(literal) === current) {
        out.push({ path, kind: 'string-from-number', from: current, to: literal });
        return allowed ? coerce(literal, schema, path, out, options, inList) : literal;
      }
    }
    if (Array.isArray(current) && current.length === 1 && !types.includes('array')) {
      const item: unknown = current[0];
      if (!Array.isArray(item) && !(bare && isBare(item))) {
        out.push({ path, kind: 'array-to-single', from: current, to: item });
        return coerce(item, schema, path, out, shifted(options, path, [...path, 0]), inList);
      }
    }
    // A string holding separators ("a, b", "北京、上海") may be one item or several, and one in
    // brackets ("[]", "[\"a\"]") may be an array written as a string: ambiguous, left to feedback.
    // Inside a list of several values ("Alice", "Bob" where rows are lists), each may be its own
    // row or all one row: ambiguous too.
    if (types.includes('array') && current !== null && current !== undefined && !inList && !(bare && isBare(current)) && !(typeof current === 'string' && (mayHoldSeveral(current) || /^\s*[[{]/.test(current)))) {
      out.push({ path, kind: 'single-to-array', from: current, to: [current] });
      current = [current];
      if (isSchema(schema.items)) return coerceItems(current as unknown[], schema.items, path, out, shifted(options, [...path, 0], path));
    }
  }
  if (Array.isArray(current) && isSchema(schema.items)) return coerceItems(current, schema.items, path, out, options);
  if (isSchema(current) && (isSchema(schema.properties) || isSchema(schema.additionalProperties) || isSchema(schema.patternProperties))) {
    return coerceProperties(current, schema, isSchema(schema.properties) ? schema.properties : {}, path, out, options);
  }
  return current;
}

/**
 * The schema of a map entry (a name `properties` does not list): the one `patternProperties`
 * schema whose pattern matches the name, else `additionalProperties` when no pattern does;
 * `undefined` when several patterns match (each would apply) or a pattern is not a regular expression.
 */
function entrySchema(schema: Schema, name: string): unknown {
  const patterns = isSchema(schema.patternProperties) ? Object.entries(schema.patternProperties) : [];
  const matching: unknown[] = [];
  for (const [pattern, entry] of patterns) {
    try {
      if (new RegExp(pattern, 'u').test(name)) matching.push(entry);
    } catch {
      return undefined;
    }
  }
  if (matching.length > 1) return undefined;
  return matching.length === 1 ? matching[0] : schema.additionalProperties;
}

/**
 * A value under a union (`anyOf`/`oneOf` of schemas) is coerced only when every branch reads it
 * alike: no branch may take it as it is (a branch of its type that needs no fix, or one not read
 * here), at least one branch fixes it, and every branch that fixes it gives the same value (`1`
 * for `a` in `{"a": 1, "b": "x"}` where a class and a map of strings both want `"1"`).
 */
function coerceUnion(value: unknown, branches: readonly unknown[], path: IssuePath, out: Coercion[], options: CoerceOptions, inList: boolean): unknown {
  let fixed: { readonly value: unknown; readonly text: string; readonly coercions: readonly Coercion[] } | undefined;
  for (const branch of branches) {
    if (!isSchema(branch) || opaque.some((keyword) => keyword in branch)) return value;
    const coercions: Coercion[] = [];
    const next = coerce(value, branch, path, coercions, options, inList);
    if (coercions.length === 0) {
      const types = typesOf(branch);
      if (types === undefined || hasType(value, types)) return value;
      continue;
    }
    const text = JSON.stringify(next) ?? '';
    if (fixed === undefined) fixed = { value: next, text, coercions };
    else if (fixed.text !== text) return value;
  }
  if (fixed === undefined) return value;
  out.push(...fixed.coercions);
  return fixed.value;
}

function coerceItems(items: readonly unknown[], schema: Schema, path: IssuePath, out: Coercion[], options: CoerceOptions): unknown {
  let copy: unknown[] | undefined;
  const several = items.length > 1;
  for (let index = 0; index < items.length; index++) {
    const item = items[index];
    const next = coerce(item, schema, [...path, index], out, options, several);
    if (next !== item) {
      copy ??= items.slice();
      copy[index] = next;
    }
  }
  return copy ?? items;
}

/** The schema property a name the schema does not know stands for (see {@link matchName}); `undefined` when none or several do. */
function propertyFor(key: string, properties: Schema): string | undefined {
  return matchName(key, Object.keys(properties).filter((name) => isSchema(properties[name])));
}

function coerceProperties(object: Schema, schema: Schema, properties: Schema, path: IssuePath, out: Coercion[], options: CoerceOptions): unknown {
  const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
  let copy: Record<string, unknown> | undefined;
  const keys = Object.keys(object);
  // Names the schema does not know, each standing for exactly one of its properties, which the
  // object lacks and no other name stands for: renamed, where the schema rejects the name or needs the property.
  const renamed = new Map<string, string>();
  const claimed = new Map<string, number>();
  for (const key of keys) {
    if (Object.hasOwn(properties, key) && isSchema(properties[key])) continue;
    const target = propertyFor(key, properties);
    if (target === undefined || target in object) continue;
    if (schema.additionalProperties !== false && !required.includes(target)) continue;
    renamed.set(key, target);
    claimed.set(target, (claimed.get(target) ?? 0) + 1);
  }
  for (const key of keys) {
    let name = key;
    const target = renamed.get(key);
    if (target !== undefined && claimed.get(target) === 1) {
      out.push({ path: [...path, key], kind: 'key-renamed', from: key, to: target });
      copy ??= { ...object };
      copy[target] = copy[key];
      delete copy[key];
      name = target;
    }
    const property = Object.hasOwn(properties, name) ? properties[name] : entrySchema(schema, name);
    if (!isSchema(property)) continue;
    const item = object[key];
    if (item === null && !required.includes(name) && excludesNull(property, options.root)) {
      out.push({ path: [...path, name], kind: 'null-to-absent', from: null });
      copy ??= { ...object };
      delete copy[name];
      continue;
    }
    const next = coerce(item, property, [...path, name], out, name === key ? options : shifted(options, [...path, name], [...path, key]), false);
    if (next !== item) {
      copy ??= { ...object };
      copy[name] = next;
    }
  }
  // Renaming changes the order of properties; it is restored to the order the model wrote.
  return copy && renamed.size > 0 ? reorder(copy, keys, renamed, claimed) : (copy ?? object);
}

/** Options whose literals under `from` are read from under `to` (where the model wrote them, before a coercion moved them). */
function shifted(options: CoerceOptions, from: IssuePath, to: IssuePath): CoerceOptions {
  const { literalAt } = options;
  if (!literalAt) return options;
  return {
    ...options,
    literalAt: (path) => (from.every((segment, index) => path[index] === segment) ? literalAt([...to, ...path.slice(from.length)]) : literalAt(path)),
  };
}

function reorder(copy: Record<string, unknown>, keys: readonly string[], renamed: ReadonlyMap<string, string>, claimed: ReadonlyMap<string, number>): Record<string, unknown> {
  const ordered: Record<string, unknown> = {};
  for (const key of keys) {
    const target = renamed.get(key);
    const name = target !== undefined && claimed.get(target) === 1 ? target : key;
    if (name in copy) ordered[name] = copy[name];
  }
  return ordered;
}
