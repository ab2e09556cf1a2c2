import { boundedQuery } from '../postgres/bounded-query';
import type { PostgresPool } from '../postgres/postgres-pool';
import { MIGRATIONS, type Migration } from './migrations';

/** The first key of the advisory lock the migrations take ('KEEL'); the second is the schema's hash. */
const LOCK_CLASS = 0x4b45454c;

/**
 * Brings `schema` (its name `name`, quoted as `schema`) up to the newest of `migrations`: creates
 * the schema and its `migrations` table when missing, then applies each step not recorded there,
 * in order, and records it. All of it runs in one transaction under an advisory lock on the
 * schema's name, so processes that start at once apply each step once (the others wait, then find
 * it recorded), and a step that fails leaves nothing behind. Steps recorded by a newer Keel are
 * left as they are.
 */
export async function migrate(pool: PostgresPool, name: string, schema: string, timeoutMs: number, migrations: readonly Migration[] = MIGRATIONS): Promise<void> {
  const connecting = pool.connect();
  const client = await boundedQuery(() => connecting, { operation: 'migrate', timeoutMs }).catch((error: unknown) => {
    // A connection that comes after the wait ended is closed, not left out of the pool.
    connecting.then((late) => late.release(true), () => undefined);
    throw error;
  });
  let failed: unknown;
  try {
    await boundedQuery(async () => {
      await client.query('BEGIN');
      await client.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [LOCK_CLASS, name]);
      const present = await client.query('SELECT 1 FROM pg_namespace WHERE nspname = $1', [name]);
      if (present.rows.length === 0) await client.query(`CREATE SCHEMA ${schema}`);
      await client.query(`CREATE TABLE IF NOT EXISTS ${schema}.migrations (
        version integer PRIMARY KEY,
        name text NOT NULL,
        applied_at timestamptz NOT NULL DEFAULT now()
      )`);
      const applied = new Set((await client.query(`SELECT version FROM ${schema}.migrations`)).rows.map((row) => Number(row.version)));
      for (const migration of migrations) {
        if (applied.has(migration.version)) continue;
        for (const statement of migration.statements(schema)) await client.query(statement);
        await client.query(`INSERT INTO ${schema}.migrations (version, name) VALUES ($1, $2)`, [migration.version, migration.name]);
      }
      await client.query('COMMIT');
    }, { operation: 'migrate', timeoutMs: Math.max(timeoutMs, 30_000) });
  } catch (error) {
    failed = error;
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    // A connection whose transaction may still be open is closed, not handed back.
    client.release(failed instanceof Error ? failed : failed !== undefined);
  }
}
