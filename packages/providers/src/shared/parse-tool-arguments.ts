/**
 * Parses a tool call's JSON arguments. An empty string (or none at all) is `{}` (a call without
 * arguments); text that is not valid JSON is returned as the raw string, so validation can report
 * it to the model; a server that sends the arguments already parsed (not a string) is taken at
 * its word.
 */
export function parseToolArguments(json: unknown): unknown {
  if (json === undefined || json === null) return {};
  if (typeof json !== 'string') return json;
  if (json.trim() === '') return {};
  try {
    return JSON.parse(json) as unknown;
  } catch {
    return json;
  }
}
