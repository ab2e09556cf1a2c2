import { firstString, readField, type SchemaRejection, schemaRejectionFor, type StrictParts } from '@keel/provider';

/** Anthropic's grammar limits, which span every strict schema of a request and name none of them. */
const requestWideLimit = /too many optional parameters|parameters with union types|too complex|grammar compilation|too many strict tools/i;
/** A `tools.<n>` error about the tool's schema (not, say, its name). */
const toolSchemaProblem = /input_schema|JSON schema|For '\w+' type|not supported|additionalProperties|recursive|circular|\$ref|\$defs|strict/i;

/**
 * Reads an Anthropic 400 for a refused strict schema. The API answers `invalid_request_error`
 * with a message that names the part it refused: `output_config.format.schema: For 'object'
 * type, 'additionalProperties' must be explicitly set to false` (the native output format),
 * `tools.0.custom: For 'integer' type, property 'minimum' is not supported` (tool 0's schema), or,
 * for the grammar limits over all strict schemas, `Schemas contains too many optional parameters
 * (25), which would make grammar compilation inefficient…`, `…too many parameters with union
 * types…`, `Schema is too complex for compilation`, which name none (then `both` when the request
 * sent both kinds, else the kind it sent). Only parts the request actually sent strict count:
 * without them, a schema error is a plain bad request.
 */
export function anthropicSchemaRejection(error: unknown, sent: StrictParts): SchemaRejection | undefined {
  const body = readField(readField(error, 'error'), 'error');
  const type = firstString(readField(error, 'type'), readField(body, 'type'));
  if (type !== '' && type !== 'invalid_request_error') return undefined;
  const message = firstString(readField(error, 'apiMessage'), readField(body, 'message'), readField(error, 'message'));
  if (/^(?:\d{3} )?(?:output_config\.format|output_format)\b/.test(message)) return schemaRejectionFor(sent, { output: true });
  const tool = /^(?:\d{3} )?tools\.(\d+)\b/.exec(message);
  if (tool !== null) return toolSchemaProblem.test(message) ? schemaRejectionFor(sent, { tool: Number(tool[1]) }) : undefined;
  return schemaRejectionFor(sent, { requestWide: requestWideLimit.test(message) });
}
