import { keelError } from '@keel/reliability/internal';

/**
 * PostgreSQL answered, and what Keel asked cannot succeed by waiting: a table Keel uses was
 * changed by hand (a column dropped, a type changed), a permission is missing, or a row holds
 * what Keel did not write (an entry that is not JSON, a status Keel does not know). Not
 * retryable. `code` is PostgreSQL's SQLSTATE (empty when the row, not the server, was at fault)
 * and `table` the table concerned, when known. The memory store reports it as the cause of a
 * `MemoryStoreError`.
 */
export class PostgresRefusedError extends keelError('PostgresRefusedError', { retryable: false }) {
  /** What was being done, e.g. `run store load`, `migrate`. */
  readonly operation: string;
  /** The SQLSTATE PostgreSQL answered with, e.g. `42501` (permission denied); empty when it was a row Keel cannot read. */
  readonly code: string;
  /** The table concerned (schema-qualified when Keel names it), or empty when unknown. */
  readonly table: string;

  constructor({ operation, message, code = '', table = '', cause }: { operation: string; message: string; code?: string; table?: string; cause?: unknown }) {
    super({ message: `PostgreSQL refused ${operation}${table === '' ? '' : ` on ${table}`}: ${message}`, cause });
    this.operation = operation;
    this.code = code;
    this.table = table;
  }
}
