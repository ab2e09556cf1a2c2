import type { IssueKind } from './issue';
/**
 * The message and `expected` text ajv gives for a failed keyword, rebuilt from the keyword and the
 * schema node holding it, so that an interpretive validator reports issues worded as ajv does (the
 * feedback quotes the validator's message for some kinds).
 */
export interface KeywordWording {
  readonly message: string;
  readonly expected?: string;
}

/** The issue kind of each failed JSON Schema keyword (any other keyword: `other`). */
export const kindByKeyword: Readonly<Record<string, IssueKind>> = {
  required: 'missing',
  type: 'type',
  additionalProperties: 'extra',
  enum: 'enum',
  const: 'enum',
  format: 'format',
  minimum: 'too-small',
  exclusiveMinimum: 'too-small',
  minLength: 'too-small',
  minItems: 'too-small',
  minProperties: 'too-small',
  maximum: 'too-big',
  exclusiveMaximum: 'too-big',
  maxLength: 'too-big',
  maxItems: 'too-big',
  maxProperties: 'too-big',
  pattern: 'pattern',
  anyOf: 'union',
  oneOf: 'union',
};

const comparison: Readonly<Record<string, string>> = {
  minimum: '>=',
  maximum: '<=',
  exclusiveMinimum: '>',
  exclusiveMaximum: '<',
};

const countNoun: Readonly<Record<string, string>> = {
  minLength: 'characters',
  maxLength: 'characters',
  minItems: 'items',
  maxItems: 'items',
  minProperties: 'properties',
  maxProperties: 'properties',
};

/** The wording of a failed keyword, given the schema node that holds it. */
export function keywordWording(keyword: string, node: Readonly<Record<string, unknown>>): KeywordWording {
  const value = node[keyword];
  switch (keyword) {
    case 'type': {
      // ajv names one type with `nullable: true` alone, and adds null to a list of types.
      const nullableOne = node.nullable === true && Array.isArray(value) && value.length === 2 && value[1] === 'null';
      const type = nullableOne ? String(value[0]) : Array.isArray(value) ? value.join(',') : String(value);
      return { message: `must be ${type}`, expected: type };
    }
    case 'enum':
      return {
        message: 'must be equal to one of the allowed values',
        expected: (value as unknown[]).map((allowed) => JSON.stringify(allowed)).join(', '),
      };
    case 'const':
      return { message: 'must be equal to constant', expected: JSON.stringify(value) };
    case 'format':
      return { message: `must match format "${String(value)}"`, expected: String(value) };
    case 'pattern':
      return { message: `must match pattern "${String(value)}"`, expected: String(value) };
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
      return { message: `must be ${comparison[keyword]} ${String(value)}`, expected: `${keyword} ${String(value)}` };
    case 'minLength':
    case 'minItems':
    case 'minProperties':
      return { message: `must NOT have fewer than ${String(value)} ${countNoun[keyword]}`, expected: `${keyword} ${String(value)}` };
    case 'maxLength':
    case 'maxItems':
    case 'maxProperties':
      return { message: `must NOT have more than ${String(value)} ${countNoun[keyword]}`, expected: `${keyword} ${String(value)}` };
    case 'anyOf':
      return { message: 'must match a schema in anyOf' };
    case 'oneOf':
      return { message: 'must match exactly one schema in oneOf' };
    case 'multipleOf':
      return { message: `must be multiple of ${String(value)}` };
    case 'not':
      return { message: 'must NOT be valid' };
    case 'false':
      return { message: 'boolean schema is false' };
    default:
      return { message: `must pass "${keyword}" keyword validation` };
  }
}
