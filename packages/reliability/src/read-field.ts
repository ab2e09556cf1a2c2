/**
 * Reads a field of a thrown or received value that may be anything: `undefined` for a value that
 * is not an object, and for a field whose getter (or Proxy trap) throws, so classifying a hostile
 * error can never throw in turn.
 */
export function readField(value: unknown, name: string): unknown {
  if (typeof value !== 'object' || value === null) return undefined;
  try {
    return (value as Record<string, unknown>)[name];
  } catch {
    return undefined;
  }
}

/**
 * The message of a thrown value for an error report: its `message` when that is a non-empty
 * string, else the value as a string; `'[unprintable error]'` when even that throws.
 */
export function errorMessageOf(error: unknown): string {
  const message = readField(error, 'message');
  if (typeof message === 'string' && message !== '') return message;
  try {
    return String(error);
  } catch {
    return '[unprintable error]';
  }
}
