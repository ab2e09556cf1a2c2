import { InvalidSchemaError } from '../errors/invalid-schema-error';

/** The JSON Schema dialects Keel validates. */
export type Dialect = 'draft-07' | '2020-12';

/** The dialect of a schema that declares no `$schema`. */
export const DEFAULT_DIALECT: Dialect = 'draft-07';

const DECLARED: Readonly<Record<string, Dialect>> = {
  'http://json-schema.org/draft-07/schema': 'draft-07',
  'https://json-schema.org/draft-07/schema': 'draft-07',
  'https://json-schema.org/draft/2020-12/schema': '2020-12',
};

/**
 * The dialect a schema is read with: the one its root `$schema` declares (draft-07 or 2020-12, with
 * or without the trailing `#`), draft-07 when it declares none.
 * @throws {InvalidSchemaError} when `$schema` names another dialect.
 */
export function dialectOf(schema: unknown): Dialect {
  if (typeof schema !== 'object' || schema === null || !Object.hasOwn(schema, '$schema')) return DEFAULT_DIALECT;
  const declared = (schema as { $schema?: unknown }).$schema;
  const dialect = typeof declared === 'string' ? DECLARED[declared.replace(/#$/, '')] : undefined;
  if (dialect === undefined) {
    throw new InvalidSchemaError({
      message: `not a valid JSON Schema: unsupported dialect $schema ${JSON.stringify(declared)} (declare "http://json-schema.org/draft-07/schema#" or "https://json-schema.org/draft/2020-12/schema", or leave $schema out for draft-07)`,
    });
  }
  return dialect;
}
