import { PostgresError } from '../errors/postgres-error';

/**
 * SQLSTATE classes and codes that pass on their own: connection exceptions (08), a serialization
 * failure or deadlock (40001, 40P01), insufficient resources (53), an operator intervention such
 * as a shutdown or a server still starting (57P01–57P05), a lock not available (55P03), a
 * cancelled statement (57014, e.g. a statement timeout).
 */
function passes(code: string): boolean {
  return code.startsWith('08') || code.startsWith('53') || ['40001', '40P01', '55P03', '57014', '57P01', '57P02', '57P03', '57P04', '57P05'].includes(code);
}

/**
 * The error a failed query stands for: a {@link PostgresError} `refused` when the server answered with
 * a SQLSTATE that waiting will not change (a missing table or column, a permission, a constraint),
 * `unavailable` otherwise (no answer, a dropped connection, a shutdown).
 */
export function classifyError(error: unknown, operation: string): PostgresError {
  if (PostgresError.isInstance(error)) return error;
  const { code, table, schema, message } = (typeof error === 'object' && error !== null ? error : {}) as { code?: unknown; table?: unknown; schema?: unknown; message?: unknown };
  const text = typeof message === 'string' ? message : String(error);
  // A SQLSTATE is five characters; node errors (ECONNREFUSED, ...) have longer codes.
  if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) && !passes(code)) {
    const named = typeof table === 'string' && table !== '' ? (typeof schema === 'string' && schema !== '' ? `${schema}.${table}` : table) : '';
    return new PostgresError({ problem: 'refused', operation, message: text, code, table: named, cause: error });
  }
  return new PostgresError({ problem: 'unavailable', operation, message: text, cause: error });
}
