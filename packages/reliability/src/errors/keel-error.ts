import type { ErrorKind } from '../error-kind';

/** Fields every Keel error constructor accepts. */
interface KeelErrorOptions {
  /** Human-readable description of what went wrong. */
  readonly message: string;
  /** The underlying error, kept for debugging. */
  readonly cause?: unknown;
}

const baseMarker = Symbol.for('keel.error');

/**
 * Base class of every Keel error. A class made by {@link keelError} carries its own
 * `Symbol.for('keel.error.<Name>')` marker so `isInstance` works across duplicate installs, where
 * `instanceof` does not.
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

/** What every error of a class made by {@link keelError} is, when its class does not decide per error. */
interface KeelErrorTraits {
  /** Whether retrying the same operation could succeed. */
  readonly retryable?: boolean;
  /** The kind error classification reads (`errorKind`), when the class has one. */
  readonly errorKind?: ErrorKind;
}

/** What the constructor of a class made by {@link keelError} takes: a message and cause, and a per-error retryability. */
export interface KeelErrorInit extends KeelErrorOptions {
  /** Overrides the class's `retryable`, for a class whose errors differ. */
  readonly retryable?: boolean;
}

/** The type of `retryable` a class's traits give: the literal set once, or `boolean` when each error says. */
type RetryableOf<Traits extends KeelErrorTraits> = Traits extends { readonly retryable: infer Retryable extends boolean } ? Retryable : boolean;

/** A class made by {@link keelError}: a {@link KeelError} with its name, its traits and `isInstance`. */
export interface KeelErrorClass<Traits extends KeelErrorTraits> {
  new (init: KeelErrorInit): KeelError & { readonly retryable: RetryableOf<Traits> } & Omit<Readonly<Traits>, 'retryable'>;
  readonly prototype: KeelError;
  /** True for an error of this class, from any copy of the package (where `instanceof` fails). */
  isInstance<T>(this: abstract new (...args: never) => T, value: unknown): value is T;
}

/**
 * The one way to make a Keel error class: `class X extends keelError('X', { retryable: false }) {}`
 * sets the name, its `Symbol.for('keel.error.X')` marker, `retryable`, the error kind when given,
 * the message and the cause once; a class adds only its own fields.
 */
export function keelError<const Traits extends KeelErrorTraits = { readonly retryable: boolean }>(
  name: string,
  traits?: Traits,
): KeelErrorClass<Traits> {
  const marker = Symbol.for(`keel.error.${name}`);
  class MadeError extends KeelError {
    override readonly name: string = name;
    readonly retryable: boolean;

    constructor({ retryable, ...options }: KeelErrorInit) {
      super(options);
      (this as unknown as Record<symbol, boolean>)[marker] = true;
      this.retryable = retryable ?? traits?.retryable ?? false;
      if (traits?.errorKind !== undefined) (this as { errorKind?: ErrorKind }).errorKind = traits.errorKind;
    }

    static isInstance(value: unknown): boolean {
      return hasMarker(value, marker);
    }
  }
  return MadeError as unknown as KeelErrorClass<Traits>;
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
