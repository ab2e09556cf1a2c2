/**
 * Serialises tool-call arguments for the wire. A string is sent as-is: it is the raw text of
 * arguments that were not valid JSON when received.
 */
export function stringifyToolArguments(value: unknown): string {
  if (typeof value === 'string') return value;
  return JSON.stringify(value ?? {});
}
