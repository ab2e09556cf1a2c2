import type { IssuePath } from '../validation/issue';

/**
 * Writes a parsed JSON value back as compact JSON text. `literalAt` gives a number's literal as
 * the model wrote it (`1.50`, `1e3`) by path, so coercions that read numbers as written see the
 * same text; other numbers are written as JavaScript prints them (`-0` kept). Keys are written in
 * the value's own order.
 */
export function writeJson(value: unknown, literalAt?: (path: IssuePath) => string | undefined): string {
  const path: (string | number)[] = [];
  const write = (current: unknown): string => {
    if (typeof current === 'number') return literalAt?.(path) ?? (Object.is(current, -0) ? '-0' : JSON.stringify(current));
    if (typeof current !== 'object' || current === null) return JSON.stringify(current) ?? 'null';
    if (Array.isArray(current)) {
      const parts: string[] = [];
      for (let index = 0; index < current.length; index++) {
        path.push(index);
        parts.push(write(current[index]));
        path.pop();
      }
      return `[${parts.join(',')}]`;
    }
    const parts: string[] = [];
    for (const key of Object.keys(current)) {
      path.push(key);
      parts.push(`${JSON.stringify(key)}:${write((current as Record<string, unknown>)[key])}`);
      path.pop();
    }
    return `{${parts.join(',')}}`;
  };
  return write(value);
}
