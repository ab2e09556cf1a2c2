import pg from 'pg';
import { afterAll, beforeAll } from 'vitest';
import { startPostgresServer, type TestPostgresServer } from './postgres-server';

/** The test file's PostgreSQL server and a way to make pools of it. */
export interface PostgresServerForTests {
  /** The server (its port, and kill/restart for fault tests); read it inside tests, once started. */
  readonly server: Pick<TestPostgresServer, 'port' | 'url' | 'kill' | 'restart'>;
  /** A pool of the server, ended after the file's tests. */
  pool(options?: pg.PoolConfig): pg.Pool;
  /** A schema name no other test of the file uses, so each test starts from empty tables. */
  schema(): string;
}

/**
 * Starts a real PostgreSQL server on a random port for the calling test file (vitest hooks), and
 * stops it (removing its directory) and ends every pool afterwards.
 */
export function usePostgresServer(): PostgresServerForTests {
  let started: TestPostgresServer | undefined;
  const pools: pg.Pool[] = [];
  let schemas = 0;
  const running = (): TestPostgresServer => {
    if (started === undefined) throw new Error('the PostgreSQL server of this test file is not started yet');
    return started;
  };
  beforeAll(async () => {
    started = await startPostgresServer();
  });
  afterAll(async () => {
    await Promise.all(pools.map((pool) => pool.end().catch(() => undefined)));
    await started?.stop();
  });
  return {
    server: {
      get port() {
        return running().port;
      },
      get url() {
        return running().url;
      },
      kill: () => running().kill(),
      restart: () => running().restart(),
    },
    pool(options = {}) {
      const pool = new pg.Pool({ connectionString: running().url, max: 5, ...options });
      pool.on('error', () => undefined); // idle connections dropped while the fault tests have the server down
      pools.push(pool);
      return pool;
    },
    schema: () => `test_${++schemas}`,
  };
}
