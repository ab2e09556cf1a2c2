/** Fields every Keel error constructor accepts. */
export interface KeelErrorOptions {
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
    return typeof value === 'object' && value !== null && baseMarker in value;
  }
}

/** Tests a value for an error marker without relying on `instanceof`. */
export function hasMarker(value: unknown, marker: symbol): boolean {
  return typeof value === 'object' && value !== null && marker in value;
}

/** Reduces any thrown value to `{ name, message }`, so no other field of the original leaks. */
export function reduceError(error: unknown): { readonly name: string; readonly message: string } {
  if (error instanceof Error) return { name: error.name, message: error.message };
  if (typeof error === 'object' && error !== null && 'message' in error) {
    const { message, name } = error as { message: unknown; name?: unknown };
    return { name: typeof name === 'string' ? name : 'Error', message: String(message) };
  }
  return { name: 'Error', message: String(error) };
}
