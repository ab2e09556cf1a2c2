import { keelError } from './keel-error';

function isTimeout(reason: unknown): boolean {
  try {
    return typeof reason === 'object' && reason !== null && (reason as { name?: unknown }).name === 'TimeoutError';
  } catch {
    return false;
  }
}

function timeoutDetail(reason: unknown): string {
  const message = (reason as { message?: unknown }).message;
  return typeof message === 'string' && message !== '' ? `: ${message}` : '';
}

/** The operation was cancelled through its `AbortSignal`. Never retried; classified as `aborted`. */
export class AbortedError extends keelError('AbortedError', { retryable: false, errorKind: 'aborted' }) {
  constructor({ message = 'The operation was aborted', cause }: { message?: string; cause?: unknown } = {}) {
    super({ message, cause });
  }

  /** True when the abort was a timeout (the signal's reason is a `TimeoutError`), e.g. a run's `timeoutMs`. */
  get timedOut(): boolean {
    return isTimeout(this.cause);
  }

  /** Builds the error for an aborted signal, keeping its reason as the cause; a timeout says so in the message. */
  static fromSignal(signal: AbortSignal): AbortedError {
    const reason: unknown = signal.reason;
    if (isTimeout(reason)) return new AbortedError({ message: `The operation timed out${timeoutDetail(reason)}`, cause: reason });
    return new AbortedError({ cause: reason });
  }
}
