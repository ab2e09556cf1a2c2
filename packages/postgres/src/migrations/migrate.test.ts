import { describe, expect, it } from 'vitest';
import { PostgresError } from '../errors/postgres-error';
import { usePostgresServer } from '../testing/use-postgres-server';
import { migrate } from './migrate';
import { MIGRATIONS } from './migrations';

const postgres = usePostgresServer();

const tables = async (schema: string) =>
  (await postgres.pool().query('SELECT table_name FROM information_schema.tables WHERE table_schema = $1 ORDER BY table_name', [schema])).rows.map((row: { table_name: string }) => row.table_name);

describe('migrate', () => {
  it('applies each step once when many processes migrate one schema at once', async () => {
    const schema = postgres.schema();
    await Promise.all(Array.from({ length: 6 }, () => migrate(postgres.pool(), schema, `"${schema}"`, 5_000)));
    expect(await tables(schema)).toEqual(['claims', 'conversations', 'exchanges', 'migrations', 'run_entries', 'runs']);
    const { rows } = await postgres.pool().query(`SELECT version, name FROM "${schema}".migrations ORDER BY version`);
    expect(rows).toEqual(MIGRATIONS.map(({ version, name }) => ({ version, name })));
  });

  it('does nothing the second time, and applies only the steps a newer release added', async () => {
    const pool = postgres.pool();
    const schema = postgres.schema();
    await migrate(pool, schema, `"${schema}"`, 5_000);
    const before = (await pool.query(`SELECT version, applied_at FROM "${schema}".migrations ORDER BY version`)).rows;
    await migrate(pool, schema, `"${schema}"`, 5_000);
    expect((await pool.query(`SELECT version, applied_at FROM "${schema}".migrations ORDER BY version`)).rows).toEqual(before);
    const next = { version: MIGRATIONS.length + 1, name: 'next', statements: (quoted: string) => [`CREATE TABLE IF NOT EXISTS ${quoted}.next (id integer)`] };
    await migrate(pool, schema, `"${schema}"`, 5_000, [...MIGRATIONS, next]);
    expect(await tables(schema)).toContain('next');
    // An older release leaves the newer step as it is.
    await migrate(pool, schema, `"${schema}"`, 5_000);
    expect((await pool.query(`SELECT count(*)::integer AS steps FROM "${schema}".migrations`)).rows).toEqual([{ steps: MIGRATIONS.length + 1 }]);
  });

  it('leaves nothing behind when a step fails, and says so for good', async () => {
    const pool = postgres.pool();
    const schema = postgres.schema();
    const broken = { version: MIGRATIONS.length + 1, name: 'broken', statements: () => ['CREATE TABLE nowhere.at_all (id integer)'] };
    const error = await migrate(pool, schema, `"${schema}"`, 5_000, [...MIGRATIONS, broken]).catch((thrown: unknown) => thrown);
    expect(PostgresError.isInstance(error) && [error.problem, error.operation]).toEqual(['refused', 'migrate']);
    expect((await pool.query('SELECT 1 FROM pg_namespace WHERE nspname = $1', [schema])).rows).toEqual([]);
    // The pool still works: the failed transaction's connection was not handed back open.
    await migrate(pool, schema, `"${schema}"`, 5_000);
    expect(await tables(schema)).toHaveLength(6);
  });
});
