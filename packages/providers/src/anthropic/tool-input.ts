function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * A Keel tool call's arguments as a `tool_use` block's `input`, which must be an object. Raw
 * argument text (arguments that were not valid JSON) is parsed when it can be; anything that is
 * still not an object is sent as `{}`.
 */
export function toolInputOf(argumentsValue: unknown): Record<string, unknown> {
  if (isPlainObject(argumentsValue)) return argumentsValue;
  if (typeof argumentsValue === 'string') {
    try {
      const parsed: unknown = JSON.parse(argumentsValue);
      if (isPlainObject(parsed)) return parsed;
    } catch {
      // not JSON: fall through
    }
  }
  return {};
}
