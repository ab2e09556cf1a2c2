/** Reading a payload from a file: a field of the wrong type reads as absent. */
export type Payload = Readonly<Record<string, unknown>>;

/** Whether `value` is a plain object (not `null`, not an array): what a payload or a record's entry must be. */
export const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A string field, or `undefined`. */
export const text = (payload: Payload, field: string): string | undefined => (typeof payload[field] === 'string' ? (payload[field] as string) : undefined);

/** A finite number field, or `undefined`. */
export const count = (payload: Payload, field: string): number | undefined => (typeof payload[field] === 'number' && Number.isFinite(payload[field]) ? (payload[field] as number) : undefined);

/** A boolean field, or `undefined`. */
export const flag = (payload: Payload, field: string): boolean | undefined => (typeof payload[field] === 'boolean' ? (payload[field] as boolean) : undefined);

/** An object with only the entries whose value is defined (for `exactOptionalPropertyTypes`). */
export function defined<T extends Record<string, unknown>>(value: T): { [K in keyof T]: Exclude<T[K], undefined> } {
  const kept: Record<string, unknown> = {};
  for (const [key, entry] of Object.entries(value)) if (entry !== undefined) kept[key] = entry;
  return kept as { [K in keyof T]: Exclude<T[K], undefined> };
}
