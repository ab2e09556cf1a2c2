import { numberLoss } from '../json/exact-number';
import type { IssuePath } from './issue';

/** Which unique, lossless fix a coercion made. */
export type CoercionKind = 'number-from-string' | 'boolean-from-string' | 'single-to-array' | 'enum-case' | 'null-to-absent';

/** One schema-guided fix: where, what it was, what it became (`to` is absent for a removed `null`). */
export interface Coercion {
  readonly path: IssuePath;
  readonly kind: CoercionKind;
  readonly from: unknown;
  readonly to?: unknown;
}

type Schema = Readonly<Record<string, unknown>>;

const numeric = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

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

function allowsNull(schema: Schema): boolean {
  if (typesOf(schema)?.includes('null')) return true;
  if (allowedValues(schema)?.includes(null)) return true;
  return branchesOf(schema)?.some((branch) => isSchema(branch) && allowsNull(branch)) ?? false;
}

function hasType(value: unknown, types: readonly string[]): boolean {
  if (value === null) return types.includes('null');
  if (Array.isArray(value)) return types.includes('array');
  if (typeof value === 'number') return types.includes('number') || (types.includes('integer') && Number.isInteger(value));
  return types.includes(typeof value);
}

/**
 * Applies the fixes a schema makes unique and lossless, as a lax-mode parser does: a numeric
 * string where a number or integer is required (`"50"` → 50; never `"USD 50"`, never digits a number
 * cannot hold exactly), `"true"`/`"false"`
 * where a boolean is, a single value where an array is (as its one item; never a string holding
 * `,`, `;`, `|` or a line break, which may be several items, nor one starting with `[` or `{`,
 * which may be a value written as a string), a string that matches
 * exactly one allowed value once trimmed and compared case-insensitively, and `null` for an
 * optional property that does not allow it (removed). Only places whose value the schema rejects
 * are touched; the input is never mutated (changed containers are copied). Walks the value once,
 * following the schema (`$ref` and general unions are left to validation).
 */
export function coerceToSchema(value: unknown, schema: unknown): { readonly value: unknown; readonly coercions: readonly Coercion[] } {
  const coercions: Coercion[] = [];
  const coerced = isSchema(schema) ? coerce(value, schema, [], coercions) : value;
  return { value: coerced, coercions };
}

function coerce(value: unknown, schema: Schema, path: IssuePath, out: Coercion[]): unknown {
  const allowed = allowedValues(schema);
  if (allowed && typeof value === 'string' && !allowed.includes(value)) {
    const wanted = value.trim().toLowerCase();
    const matches = allowed.filter((option) => typeof option === 'string' && option.toLowerCase() === wanted);
    if (matches.length === 1) {
      out.push({ path, kind: 'enum-case', from: value, to: matches[0] });
      return matches[0];
    }
    return value;
  }
  const types = typesOf(schema);
  if (!types) return value;
  let current = value;
  if (!hasType(current, types)) {
    // Never a number that cannot hold the digits as written ("9007199254740993" would lose its last digit).
    if (typeof current === 'string' && (types.includes('number') || types.includes('integer')) && numeric.test(current.trim()) && numberLoss(current.trim()) === undefined) {
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
    // A string holding separators ("a, b") may be one item or several, and one in brackets ("[]",
    // "[\"a\"]") may be an array written as a string: ambiguous, left to feedback.
    if (types.includes('array') && current !== null && current !== undefined && !(typeof current === 'string' && /[,;|\n]|^\s*[[{]/.test(current))) {
      out.push({ path, kind: 'single-to-array', from: current, to: [current] });
      current = [current];
    }
  }
  if (Array.isArray(current) && isSchema(schema.items)) return coerceItems(current, schema.items, path, out);
  if (isSchema(current) && isSchema(schema.properties)) return coerceProperties(current, schema, schema.properties, path, out);
  return current;
}

function coerceItems(items: readonly unknown[], schema: Schema, path: IssuePath, out: Coercion[]): unknown {
  let copy: unknown[] | undefined;
  for (let index = 0; index < items.length; index++) {
    const item = items[index];
    const next = coerce(item, schema, [...path, index], out);
    if (next !== item) {
      copy ??= items.slice();
      copy[index] = next;
    }
  }
  return copy ?? items;
}

function coerceProperties(object: Schema, schema: Schema, properties: Schema, path: IssuePath, out: Coercion[]): unknown {
  const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
  let copy: Record<string, unknown> | undefined;
  for (const key of Object.keys(object)) {
    const property = properties[key];
    if (!isSchema(property)) continue;
    const item = object[key];
    if (item === null && !required.includes(key) && !allowsNull(property)) {
      out.push({ path: [...path, key], kind: 'null-to-absent', from: null });
      copy ??= { ...object };
      delete copy[key];
      continue;
    }
    const next = coerce(item, property, [...path, key], out);
    if (next !== item) {
      copy ??= { ...object };
      copy[key] = next;
    }
  }
  return copy ?? object;
}
