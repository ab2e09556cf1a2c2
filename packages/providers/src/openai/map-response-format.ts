import type { ResponseFormat } from '@keel/provider';

/** The `response_format` of a native structured-output request. */
export interface OpenAIJsonSchemaFormat {
  readonly type: 'json_schema';
  readonly json_schema: { readonly name: string; readonly schema: Record<string, unknown>; readonly strict: true };
}

/** A schema name the API accepts: letters, digits, `_` and `-`, at most 64 characters. */
function schemaNameOf(name: string | undefined): string {
  const cleaned = (name ?? '').replaceAll(/[^a-zA-Z0-9_-]/g, '_').slice(0, 64);
  return cleaned === '' ? 'response' : cleaned;
}

/**
 * Maps a strict response format (core asks for it where the model has native output, with the
 * schema already lowered) to `response_format: { type: 'json_schema', json_schema: { name,
 * schema, strict: true } }`. `undefined` without `strict` or without a schema: a non-strict format
 * is not sent (compatible servers differ in what they do with one, and Keel validates the output
 * either way).
 */
export function mapOpenAIResponseFormat(format: ResponseFormat | undefined): OpenAIJsonSchemaFormat | undefined {
  if (format?.strict !== true || format.schema === undefined) return undefined;
  return { type: 'json_schema', json_schema: { name: schemaNameOf(format.name), schema: { ...format.schema }, strict: true } };
}
