/** Tells `observer` (when given) about `value`; an observer that throws never changes what its caller does. */
export function notifyObserver<T>(observer: ((value: T) => void) | undefined, value: T): void {
  try {
    observer?.(value);
  } catch {
    // An observer: it never changes what the caller does.
  }
}
