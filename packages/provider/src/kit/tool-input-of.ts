function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * For provider authors: a Keel tool call's `arguments` as the JSON object a vendor API takes as a
 * tool call's input (Anthropic's `tool_use.input`, the AI SDK spec's `tool-call.input`). Raw
 * argument text (arguments that were not valid JSON when the model sent them) is parsed when it
 * can be; anything that is still not a plain object is sent as `{}`.
 */
export function toolInputOf(argumentsValue: unknown): Record<string, unknown> {
  if (isPlainObject(argumentsValue)) return argumentsValue;
  if (typeof argumentsValue === 'string') {
    try {
      const parsed: unknown = JSON.parse(argumentsValue);
      if (isPlainObject(parsed)) return parsed;
    } catch {
      // not JSON: sent as {}
    }
  }
  return {};
}
