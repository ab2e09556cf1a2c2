import { firstString, readField, type SchemaRejection, schemaRejectionFor, type StrictParts } from '@keel/provider';

/**
 * Reads an OpenAI 400 for a refused strict schema. The API answers `invalid_request_error` with
 * the refused part in `param`: `response_format` for the output format ("Invalid schema for
 * response_format 'answer': In context=(), 'additionalProperties' is required to be supplied and
 * to be false", or "'response_format' of type 'json_schema' is not supported with this model"),
 * `tools[<n>].function.parameters` with code `invalid_function_parameters` for a strict tool
 * ("Invalid schema for function 'transfer': …"). Only parts the request actually sent strict
 * count: without them, a schema error is a plain bad request.
 */
export function openAISchemaRejection(error: unknown, sent: StrictParts): SchemaRejection | undefined {
  const body = readField(error, 'error');
  const type = firstString(readField(error, 'type'), readField(body, 'type'));
  if (type !== '' && type !== 'invalid_request_error') return undefined;
  const param = firstString(readField(error, 'param'), readField(body, 'param'));
  const code = firstString(readField(error, 'code'), readField(body, 'code'));
  const message = firstString(readField(body, 'message'), readField(error, 'message'));
  const aboutOutput = /^response_format\b/.test(param) || code === 'invalid_json_schema' || /Invalid schema for response_format|'response_format' of type 'json_schema'/.test(message);
  if (aboutOutput) return schemaRejectionFor(sent, { output: true });
  const toolParam = /^tools\[(\d+)\]\.function\.(?:parameters|strict)\b/.exec(param);
  if (toolParam !== null) return schemaRejectionFor(sent, { tool: Number(toolParam[1]) });
  return schemaRejectionFor(sent, { tool: code === 'invalid_function_parameters' || /Invalid schema for function '/.test(message) });
}
