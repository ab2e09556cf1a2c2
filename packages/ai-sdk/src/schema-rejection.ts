import { schemaRejectionFor, type SchemaRejection, type StrictParts } from '@keel/provider';

/** A 400's words about the response format: Gemini's `response_schema`, Anthropic's `output_config.format`, OpenAI's `response_format`. */
const ABOUT_OUTPUT = /response_schema|responseSchema|response_mime_type|response mime type|output_config\.format|output_format|response_format/i;
/** ... about a tool's input schema: Gemini's `function_declarations[i].parameters`, Anthropic's `tools.N`, OpenAI's `tools[N].function.parameters`. */
const ABOUT_TOOLS = /function_declarations|functionDeclarations|tools[.[]\d+\]?\.(?:custom\.)?(?:function\.)?(?:parameters|input_schema|strict)|Invalid schema for function/i;
/** ... about a schema the request cannot carry at all (the provider package's own conversion refused it). */
const ABOUT_SCHEMA = /JSON Schema|schema/i;

/**
 * Which strict schema a refused request's error is about, from its text (the message and, for an
 * HTTP error, the response body): `output` for the response format, `tool` for a strict tool's
 * input schema, `both` when the text names a schema and both were sent. `undefined` when the
 * request sent no strict schema or the text does not say: core then treats it as any bad request.
 */
export function schemaRejectionOf(text: string, sent: StrictParts): SchemaRejection | undefined {
  return schemaRejectionFor(sent, { output: ABOUT_OUTPUT.test(text), tool: ABOUT_TOOLS.test(text), requestWide: ABOUT_SCHEMA.test(text) });
}
