import { describe, expect, it } from 'vitest';
import { describeRunStore, expectSharedStores } from '../../../core/src/durable/run-store-contract-fixture';
import { PostgresError } from '../errors/postgres-error';
import { usePostgresServer } from '../testing/use-postgres-server';
import { postgresRunStore } from './postgres-run-store';

const postgres = usePostgresServer();
const APPEND = { agentId: 'a', status: 'running', entries: [{ seq: 0 }] } as const;

describeRunStore('postgresRunStore', () => postgresRunStore({ pool: postgres.pool(), schema: postgres.schema() }));

describe('postgresRunStore: sharing and storage', () => {
  it('shares fences, journals and claims between two pools (two processes of a fleet)', async () => {
    const schema = postgres.schema();
    const first = postgresRunStore({ pool: postgres.pool(), schema });
    const second = postgresRunStore({ connectionString: postgres.server.url, schema });
    try {
      await expectSharedStores(first, second);
    } finally {
      await second.close();
    }
  });

  it('keeps each entry as the JSON text it was handed, in a row of its own, whatever it holds', async () => {
    const pool = postgres.pool();
    const schema = postgres.schema();
    const store = postgresRunStore({ pool, schema });
    const odd = [
      { z: 1, a: 'quote " backslash \\ comma , braces {} NULL', 'key with space': [null, true, -0.5e-7] },
      { text: 'ünï 🎉 \u0000 nul, \ud800 lone surrogate, \u2028 separator', NULL: 'NULL' },
      { big: 'x'.repeat(1_000_000) },
    ];
    await store.append(await store.acquire('odd'), { ...APPEND, entries: odd });
    const { rows } = await pool.query(`SELECT entry FROM "${schema}".run_entries ORDER BY seq`);
    expect(rows.map((row: { entry: string }) => row.entry)).toEqual(odd.map((entry) => JSON.stringify(entry)));
    const loaded = await store.load('odd');
    expect(loaded?.entries.map((entry) => JSON.stringify(entry))).toEqual(odd.map((entry) => JSON.stringify(entry)));
  });

  it('appends many entries at once and keeps their order', async () => {
    const store = postgresRunStore({ pool: postgres.pool(), schema: postgres.schema() });
    const entries = Array.from({ length: 2_500 }, (_, seq) => ({ seq }));
    const lease = await store.acquire('long');
    expect(await store.append(lease, { ...APPEND, entries })).toBe(2_500);
    expect(await store.append(lease, { ...APPEND, entries: [{ seq: 2_500 }] })).toBe(2_501);
    expect((await store.load('long'))?.entries).toEqual([...entries, { seq: 2_500 }]);
  });

  it('keeps runs and claims apart whatever their ids hold, characters PostgreSQL text cannot hold included', async () => {
    const store = postgresRunStore({ pool: postgres.pool(), schema: postgres.schema() });
    const ids = ['a\u0000b', 'a', '\ud800', '\ud801', '#a', `#${'0'.repeat(64)}`];
    for (const id of ids) await store.append(await store.acquire(id), { ...APPEND, entries: [{ id }] });
    for (const id of ids) expect((await store.load(id))?.entries).toEqual([{ id }]);
    expect(await store.claim('k\u0000', 60_000)).toBe(true);
    expect(await store.claim('k', 60_000)).toBe(true);
    expect(await store.claim('k\u0000', 60_000)).toBe(false);
  });

  it('keeps a claim with no end when its time is infinite, and forgets spent claims as it goes', async () => {
    const pool = postgres.pool();
    const schema = postgres.schema();
    const store = postgresRunStore({ pool, schema });
    expect(await store.claim('forever', Number.POSITIVE_INFINITY)).toBe(true);
    expect(await store.claim('forever', 1)).toBe(false);
    for (let index = 0; index < 1_021; index++) await store.claim(`short-${index}`, 1);
    await new Promise((resolve) => setTimeout(resolve, 10));
    await store.claim('the 1024th claim sweeps', 60_000);
    const { rows } = await pool.query(`SELECT key FROM "${schema}".claims`);
    const kept = rows.map((row: { key: string }) => row.key);
    // At most 1 000 a sweep, so no claim waits long: 1 021 spent, 21 left for the next sweep.
    expect(kept).toHaveLength(23);
    expect(kept).toEqual(expect.arrayContaining(['forever', 'the 1024th claim sweeps']));
  });

});

describe('postgresRunStore: faults and bad input', () => {
  it('names the table of a row Keel did not write, and of a table changed by hand', async () => {
    const pool = postgres.pool();
    const schema = postgres.schema();
    const store = postgresRunStore({ pool, schema });
    await store.append(await store.acquire('spoiled'), APPEND);
    await pool.query(`UPDATE "${schema}".run_entries SET entry = '{not json'`);
    const notJson = await store.load('spoiled').catch((error: unknown) => error);
    expect(PostgresError.isInstance(notJson) && notJson.problem === 'refused' && notJson.table).toBe(`"${schema}".run_entries`);
    await pool.query(`ALTER TABLE "${schema}".runs DROP COLUMN tenant`);
    const dropped = await store.append(await store.acquire('spoiled'), APPEND).catch((error: unknown) => error);
    expect(PostgresError.isInstance(dropped) && { problem: dropped.problem, code: dropped.code, retryable: dropped.retryable }).toEqual({ problem: 'refused', code: '42703', retryable: false });
  });

  it('refuses bad input and options with a TypeError before anything is sent', async () => {
    const pool = postgres.pool();
    const schema = postgres.schema();
    const store = postgresRunStore({ pool, schema });
    await expect(store.append({ runId: 'x', fence: 1 }, { ...APPEND, status: 'paused' as never })).rejects.toThrow(TypeError);
    await expect(store.append({ runId: 'x', fence: '1' as never }, APPEND)).rejects.toThrow(TypeError);
    await expect(store.acquireAt('x', '0' as never)).rejects.toThrow(TypeError);
    await expect(store.claim('x', Number.NaN)).rejects.toThrow(TypeError);
    expect(await store.acquireAt('x', 1.5)).toBeUndefined();
    // Nothing was sent: not even the migrations ran.
    expect((await pool.query('SELECT 1 FROM pg_namespace WHERE nspname = $1', [schema])).rows).toEqual([]);
    for (const bad of ['bad-name', 'x"; DROP TABLE runs; --', '', '1abc', 'x'.repeat(64)]) expect(() => postgresRunStore({ pool, schema: bad })).toThrow(TypeError);
    expect(() => postgresRunStore({ pool, connectionString: postgres.server.url } as never)).toThrow(TypeError);
    expect(() => postgresRunStore({} as never)).toThrow(TypeError);
    expect(() => postgresRunStore({ pool, timeoutMs: Number.NaN })).toThrow(TypeError);
  });

  it('fails with PostgresError unavailable, never hangs, while the server is down, and works again once it is back', async () => {
    const store = postgresRunStore({ pool: postgres.pool({ connectionTimeoutMillis: 200 }), schema: postgres.schema(), timeoutMs: 500 });
    await store.append(await store.acquire('down'), APPEND);
    await postgres.server.kill();
    try {
      const started = Date.now();
      const error = await store.acquire('down').catch((thrown: unknown) => thrown);
      expect(PostgresError.isInstance(error) && [error.problem, error.operation]).toEqual(['unavailable', 'run store acquire']);
      expect(Date.now() - started).toBeLessThan(2_000);
    } finally {
      await postgres.server.restart();
    }
    expect((await store.load('down'))?.entries).toEqual([{ seq: 0 }]);
  });
});
