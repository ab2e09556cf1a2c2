import type { LoweredSchema } from '../../spec/model-provider-v1';

/**
 * The subset of JSON Schema one provider's constrained decoder accepts, as data. The engine
 * (`lowerJsonSchema`) is shared; each adapter describes its vendor's rules in its own
 * `lower-schema.ts`, with the vendor's documentation cited there.
 */
export interface DecoderDialect {
  /** Name used in reasons, e.g. `Anthropic`. */
  readonly label: string;
  /**
   * Every property must be listed in `required` (OpenAI strict mode); an optional property is
   * sent as required and nullable, and Keel maps the model's `null` back to an absent property.
   */
  readonly allRequired: boolean;
  /** `$ref` cycles (recursive schemas) are accepted. */
  readonly recursion: boolean;
  /** String `format` values the decoder accepts; any other format is removed. */
  readonly formats: ReadonlySet<string>;
  /**
   * Constraint keywords the decoder accepts and enforces, beyond types, enums, consts, unions,
   * properties and items (e.g. `minimum`, `pattern`, `minItems`). Every other constraint is
   * removed from the sent schema and listed in the changes.
   */
  readonly constraints: ReadonlySet<string>;
  /** Largest `minItems` the decoder accepts; a larger one is lowered to it. */
  readonly minItemsCap: number;
  /** Limits on the whole schema; returns why the schema exceeds them, or `undefined`. */
  readonly limits: (stats: SchemaStats) => string | undefined;
}

/** Counts gathered while lowering, checked against a dialect's limits. */
export interface SchemaStats {
  /** Properties declared, over every object. */
  properties: number;
  /** Properties not listed in their object's `required` (before any were made required). */
  optionalProperties: number;
  /** Nodes that are unions: `anyOf`, or a `type` list of more than one type (`null` counted). */
  unions: number;
  /** Deepest nesting of objects (the root object is 1). */
  objectDepth: number;
  /** Enum values, over every enum. */
  enumValues: number;
  /** The largest enum's value count, and the total length of its string values. */
  largestEnum: { values: number; stringLength: number };
  /** Characters of every property name, definition name, enum and const string value. */
  stringLength: number;
}

/** The outcome of lowering: the schema sent and its changes, or why it cannot be lowered. */
export type LoweringOutcome = { readonly ok: true; readonly lowered: LoweredSchema } | { readonly ok: false; readonly reason: string };
