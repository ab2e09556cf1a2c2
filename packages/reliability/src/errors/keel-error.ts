/** Fields every Keel error constructor accepts. */
interface KeelErrorOptions {
  /** Human-readable description of what went wrong. */
  readonly message: string;
  /** The underlying error, kept for debugging. */
  readonly cause?: unknown;
}

const baseMarker = Symbol.for('keel.error');

/**
 * Base class of every Keel error. Subclasses carry their own `Symbol.for('keel.error.<Name>')`
 * marker so `isInstance` works across duplicate installs, where `instanceof` does not.
 */
export abstract class KeelError extends Error {
  private readonly [baseMarker] = true;
  /** Whether retrying the same operation could succeed. */
  abstract readonly retryable: boolean;

  constructor({ message, cause }: KeelErrorOptions) {
    super(message, cause === undefined ? undefined : { cause });
  }

  /** True for any Keel error, from any copy of the package. */
  static isKeelError(value: unknown): value is KeelError {
    return hasMarker(value, baseMarker);
  }
}

/** Tests a value for an error marker without relying on `instanceof`. */
export function hasMarker(value: unknown, marker: symbol): boolean {
  if (typeof value !== 'object' || value === null) return false;
  try {
    return marker in value;
  } catch {
    // A Proxy whose `has` trap throws is no Keel error.
    return false;
  }
}

/** Longest message {@link reduceError} keeps, in characters. */
const MAX_REDUCED_MESSAGE = 2000;

/** Reads a property without letting a getter or a Proxy trap throw; `undefined` when it does. */
function safeRead(value: object, key: string): unknown {
  try {
    return (value as Record<string, unknown>)[key];
  } catch {
    return undefined;
  }
}

/** A printable form of any primitive or object, never throwing (a throwing `toString` gives a placeholder). */
function safeText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'symbol') return value.description === undefined ? 'Symbol()' : `Symbol(${value.description})`;
  if (value === null || typeof value !== 'object') {
    if (typeof value === 'function') return '[function]';
    return String(value);
  }
  try {
    const text: unknown = String(value);
    return typeof text === 'string' ? text : '[unprintable value]';
  } catch {
    return '[unprintable value]';
  }
}

const cap = (text: string) => (text.length > MAX_REDUCED_MESSAGE ? `${text.slice(0, MAX_REDUCED_MESSAGE)}…` : text);

/**
 * Reduces any thrown value to `{ name, message }`, so no other field of the original leaks. Never
 * throws, whatever is thrown: a throwing `toString` or getter, a Proxy, a symbol, `undefined`.
 */
export function reduceError(error: unknown): { readonly name: string; readonly message: string } {
  if (typeof error !== 'object' || error === null) return { name: 'Error', message: cap(safeText(error)) };
  const name = safeRead(error, 'name');
  const message = safeRead(error, 'message');
  const safeName = typeof name === 'string' && name !== '' ? cap(name) : 'Error';
  if (message !== undefined) return { name: safeName, message: cap(safeText(message)) };
  let isError = false;
  try {
    isError = error instanceof Error;
  } catch {
    // A Proxy whose getPrototypeOf trap throws.
  }
  return { name: safeName, message: isError ? '' : cap(safeText(error)) };
}
