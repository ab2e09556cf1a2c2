import { type BoundedCallErrors, boundedCall, type CallBounds } from '@keel/core/internal';
import { PostgresError } from '../errors/postgres-error';
import { classifyError } from './classify-error';

/** How long a database call may take and what may cancel it. */
export type QueryBounds = CallBounds;

const POSTGRES_ERRORS: BoundedCallErrors = {
  timedOut: (operation, message) => new PostgresError({ problem: 'unavailable', operation, message }),
  failed: (error, operation) => classifyError(error, operation),
};

/**
 * A database call that can neither hang nor outlive its run (core's `boundedCall`): it rejects
 * with a `PostgresError` `unavailable` after `timeoutMs` or when the server cannot be reached,
 * `refused` when the server refuses for good, and with `AbortedError` when the signal aborts.
 */
export function boundedQuery<T>(call: () => Promise<T>, bounds: QueryBounds): Promise<T> {
  return boundedCall(call, bounds, POSTGRES_ERRORS);
}
