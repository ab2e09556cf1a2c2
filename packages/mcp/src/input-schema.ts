/** A server's input schema made ready for Keel, or why it cannot be. */
export type PreparedSchema = { readonly ok: true; readonly schema: Record<string, unknown> } | { readonly ok: false; readonly message: string };

const isPlainObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Keel's own copy of a tool's input schema, as JSON data: the root `$schema` is dropped (Keel
 * validates with draft-07 semantics; a keyword draft-07 does not know is then refused when the
 * schema is compiled, never ignored), a root without `type` gets `type: "object"`, and a root of
 * any other type is refused (MCP tool arguments are an object). Never throws.
 */
export function prepareInputSchema(schema: unknown): PreparedSchema {
  if (!isPlainObject(schema)) return { ok: false, message: 'the input schema is not a JSON object' };
  let copy: unknown;
  try {
    copy = JSON.parse(JSON.stringify(schema));
  } catch {
    return { ok: false, message: 'the input schema is not JSON data (a cycle, or too deeply nested)' };
  }
  if (!isPlainObject(copy)) return { ok: false, message: 'the input schema is not a JSON object' };
  delete copy.$schema;
  if (copy.type === undefined) copy.type = 'object';
  if (copy.type !== 'object') return { ok: false, message: `the input schema must describe an object (type "object"), got type ${JSON.stringify(copy.type)}` };
  return { ok: true, schema: copy };
}
