import type { PostgresPool } from '../postgres/postgres-pool';
import { migrate } from './migrate';

/**
 * The schema's migrations, run once by the first operation that needs the tables: every later
 * operation waits on the same run; a run that failed (the server was down) is tried again by
 * the next operation.
 */
export function schemaReadiness(pool: PostgresPool, name: string, schema: string, timeoutMs: number): () => Promise<void> {
  let running: Promise<void> | undefined;
  return () => {
    running ??= migrate(pool, name, schema, timeoutMs).catch((error: unknown) => {
      running = undefined;
      throw error;
    });
    return running;
  };
}
