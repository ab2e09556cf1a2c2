/**
 * Parses a tool call's JSON arguments. An empty string is `{}` (a call without arguments); text
 * that is not valid JSON is returned as the raw string, so validation can report it to the model.
 */
export function parseToolArguments(json: string): unknown {
  if (json.trim() === '') return {};
  try {
    return JSON.parse(json) as unknown;
  } catch {
    return json;
  }
}
