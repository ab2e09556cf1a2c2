import { type ErrorKind, isTransientErrorKind } from './error-kind';
import { readField } from './read-field';

/** The result of classifying a thrown value. */
interface ErrorClassification {
  readonly errorKind: ErrorKind;
  /** Delay the server asked for before a retry, when it said. */
  readonly retryAfterMs?: number;
}

const knownKinds = new Set<string>([
  'rate-limit', 'overloaded', 'server-error', 'timeout', 'network', 'schema-fail', 'parse-fail',
  'refusal', 'truncated', 'auth', 'bad-request', 'context-overflow', 'bad-response', 'aborted', 'unknown',
]);

/**
 * Socket-level error codes (Node's `code`, undici's `UND_ERR_*`) that mean the request never got a
 * complete answer: the one list every package classifies with. `ETIMEDOUT` is a timeout, the
 * rest are network faults.
 */
export const NETWORK_ERROR_CODES: ReadonlySet<string> = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
]);

/** The kind of a socket-level error code: `timeout` for `ETIMEDOUT`, `network` for the others, else `undefined`. */
export function kindFromNetworkCode(code: unknown): 'network' | 'timeout' | undefined {
  if (typeof code !== 'string' || !NETWORK_ERROR_CODES.has(code)) return undefined;
  return code === 'ETIMEDOUT' ? 'timeout' : 'network';
}

/** Maps an HTTP status to the kind the gate reasons about. */
export function kindFromStatus(status: number): Extract<ErrorKind, 'rate-limit' | 'overloaded' | 'timeout' | 'auth' | 'server-error' | 'bad-request' | 'unknown'> {
  if (status === 429) return 'rate-limit';
  if (status === 529) return 'overloaded';
  if (status === 408) return 'timeout';
  if (status === 401 || status === 403) return 'auth';
  if (status >= 500) return 'server-error';
  if (status >= 400) return 'bad-request';
  return 'unknown';
}

/**
 * Classifies a thrown value. Errors that already carry an `errorKind` (as Keel providers' errors
 * do) keep it; otherwise aborts, HTTP statuses, timeouts and socket errors are recognised.
 */
export function classifyError(error: unknown): ErrorClassification {
  const declared = readField(error, 'errorKind');
  const retryAfter = readField(error, 'retryAfterMs');
  const retryAfterMs = typeof retryAfter === 'number' && Number.isFinite(retryAfter) ? retryAfter : undefined;
  const withRetry = (errorKind: ErrorKind): ErrorClassification =>
    retryAfterMs === undefined ? { errorKind } : { errorKind, retryAfterMs };
  if (typeof declared === 'string' && knownKinds.has(declared)) {
    // An error that says it is not retryable (a gate's own fail-fast, say) is never treated as transient.
    if (readField(error, 'retryable') === false && isTransientErrorKind(declared as ErrorKind)) return { errorKind: 'unknown' };
    return withRetry(declared as ErrorKind);
  }
  const name = readField(error, 'name');
  if (name === 'AbortError' || readField(error, 'code') === 'ABORT_ERR') return { errorKind: 'aborted' };
  const status = readField(error, 'status');
  if (typeof status === 'number') return withRetry(kindFromStatus(status));
  if (name === 'TimeoutError') return { errorKind: 'timeout' };
  const code = readField(error, 'code') ?? readField(readField(error, 'cause'), 'code');
  const networkKind = kindFromNetworkCode(code);
  if (networkKind) return { errorKind: networkKind };
  return { errorKind: 'unknown' };
}
