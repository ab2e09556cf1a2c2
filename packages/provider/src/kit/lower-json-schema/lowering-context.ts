import type { DecoderDialect, SchemaStats } from './decoder-dialect';
import type { Json } from './schema-pointer';

export const JSON_TYPES = new Set(['object', 'array', 'string', 'number', 'integer', 'boolean', 'null']);
/** Kept as they are: they constrain nothing. */
export const KEPT_ANNOTATIONS = new Set(['description', 'title']);
/** Dropped silently: annotations and identifiers that constrain nothing. */
export const DROPPED_ANNOTATIONS = new Set(['$schema', '$id', '$comment', 'default', 'examples', 'deprecated', 'readOnly', 'writeOnly', '$anchor']);
/** Handled by the engine itself. */
export const STRUCTURAL = new Set([
  'type', 'nullable', 'enum', 'const', 'anyOf', 'oneOf', 'allOf', '$ref', '$defs', 'definitions', 'properties', 'required', 'additionalProperties', 'items',
]);
/** Structure the decoder cannot represent when the object has no declared properties. */
export const OPEN_OBJECT_KEYWORDS = ['patternProperties', 'unevaluatedProperties'] as const;
/** A schema nested deeper than this is refused (and so is a schema object that contains itself). */
export const MAX_DEPTH = 64;

/** Why a schema cannot be lowered; caught by `lowerJsonSchema` and returned as its reason. */
export class Unlowerable extends Error {}

/** Stops the lowering with `reason`. */
export function fail(reason: string): never {
  throw new Unlowerable(reason);
}

/** A definition of `$defs` / `definitions`, lowered the first time a `$ref` uses it. */
export interface Definition {
  readonly raw: unknown;
  readonly source: '$defs' | 'definitions';
  state: 'pending' | 'lowering' | 'done';
}

/** Lowers one schema node (given to the parts that lower nested schemas, so files do not import each other in a circle). */
export type LowerNode = (raw: unknown, at: readonly string[], context: LoweringContext, depth: number, parentObjectDepth: number) => Json;

/** The state of one lowering. */
export interface LoweringContext {
  readonly dialect: DecoderDialect;
  readonly changes: string[];
  readonly stats: SchemaStats;
  readonly definitions: Map<string, Definition>;
  readonly loweredDefinitions: Map<string, Json>;
  readonly ancestors: Set<object>;
  readonly lowerNode: LowerNode;
}
