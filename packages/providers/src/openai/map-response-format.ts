import type { ResponseFormat } from '@keel/core/internal';

/** The `response_format` of a native structured-output request. */
export interface OpenAIJsonSchemaFormat {
  readonly type: 'json_schema';
  readonly json_schema: { readonly name: string; readonly schema: Record<string, unknown>; readonly strict: false };
}

/** A schema name the API accepts: letters, digits, `_` and `-`, at most 64 characters. */
function schemaNameOf(name: string | undefined): string {
  const cleaned = (name ?? '').replaceAll(/[^a-zA-Z0-9_-]/g, '_').slice(0, 64);
  return cleaned === '' ? 'response' : cleaned;
}

/**
 * Maps a response format with a schema to `response_format: { type: 'json_schema' }` with
 * `strict: false` (Keel validates the output itself, and strict mode rejects many ordinary
 * schemas). `undefined` when there is no schema.
 */
export function mapOpenAIResponseFormat(format: ResponseFormat | undefined): OpenAIJsonSchemaFormat | undefined {
  if (format?.schema === undefined) return undefined;
  return { type: 'json_schema', json_schema: { name: schemaNameOf(format.name), schema: { ...format.schema }, strict: false } };
}
