import { Agent, MemoryStoreError } from '@keel/core';
import { scriptedModel } from '@keel/core/test';
import { beforeEach, describe, expect, it } from 'vitest';
import { describeSharedMemory } from '../../../core/src/testing/shared-memory-contract-fixture';
import { ConversationBusyError, MemoryLeaseLostError } from '../index';
import { PostgresError } from '../errors/postgres-error';
import { usePostgresServer } from '../testing/use-postgres-server';
import { renewSql } from './memory-statements';
import { postgresMemory } from './postgres-memory';

const postgres = usePostgresServer();
/** Each test's own schema, so every test starts from empty tables. */
let schema = '';
beforeEach(() => {
  schema = postgres.schema();
});

describeSharedMemory('postgresMemory', {
  memory: (settings) => postgresMemory({ pool: postgres.pool(), schema, ...settings }),
  async expireLease(conversationId) {
    await postgres.pool().query(`UPDATE "${schema}".conversations SET lease_expires_at = clock_timestamp() - interval '1 millisecond' WHERE conversation_id = $1 AND lease_token IS NOT NULL`, [conversationId]);
  },
  crashable(settings) {
    const doomed = postgres.pool();
    // Its renewals can no longer reach the server, as if its process had died.
    return { memory: postgresMemory({ pool: doomed, schema, ...settings }), crash: () => doomed.end() };
  },
  isBusy: ConversationBusyError.isInstance,
  isLeaseLost: MemoryLeaseLostError.isInstance,
});

const echoModel = (delayMs = 0) => scriptedModel((request) => ({ text: `answer to ${String(request.messages.at(-1)?.content)}`, delayMs }));

describe('postgresMemory', () => {
  it('keeps each exchange as the JSON text of its messages, key order included', async () => {
    const pool = postgres.pool();
    const memory = postgresMemory({ pool, schema });
    const messages = [{ role: 'user' as const, content: 'ünï 🎉 "quoted" \\ \u0000' }];
    await memory.append('c', messages, { runId: 'r' });
    expect((await pool.query(`SELECT exchange_id, messages FROM "${schema}".exchanges`)).rows).toEqual([{ exchange_id: 'r', messages: JSON.stringify(messages) }]);
    expect(await memory.load('c')).toEqual(messages);
  });

  it('a renewal that lands after the holder let the lease go does not take the conversation again', async () => {
    const pool = postgres.pool();
    const memory = postgresMemory({ pool, schema, concurrency: 'reject', leaseMs: 5_000 });
    await memory.load('late', { runId: 'A' });
    const { rows } = await pool.query(`SELECT lease_token FROM "${schema}".conversations WHERE conversation_id = 'late'`);
    const token = String(rows[0]?.lease_token);
    await memory.append('late', [{ role: 'user', content: 'hi' }], { runId: 'A' });
    // The renewal A's timer sent just before its append, answered after it.
    await pool.query(renewSql(`"${schema}"`), ['late', token, 'A', 5_000]);
    await expect(memory.load('late', { runId: 'B' })).resolves.toEqual([{ role: 'user', content: 'hi' }]);
    await memory.append('late', [{ role: 'user', content: 'again' }], { runId: 'B' });
  });

  it('forgets a conversation its time to live after the last append, and sweeps it as appends go', async () => {
    const pool = postgres.pool();
    const memory = postgresMemory({ pool, schema, ttlSeconds: 0.2, leaseMs: 100 });
    await memory.append('old', [{ role: 'user', content: 'hi' }]);
    await memory.append('kept', [{ role: 'user', content: 'one' }]);
    await new Promise((resolve) => setTimeout(resolve, 250));
    expect(await memory.load('old')).toEqual([]);
    // An append to an expired conversation starts it afresh.
    await memory.append('kept', [{ role: 'user', content: 'two' }]);
    expect(await memory.load('kept')).toEqual([{ role: 'user', content: 'two' }]);
    // Expired for longer than three leases (300 ms) by the time the 256th append sweeps.
    await new Promise((resolve) => setTimeout(resolve, 600));
    for (let index = 0; index < 253; index++) await memory.append(`fresh-${index}`, [{ role: 'user', content: 'hi' }]);
    const { rows } = await pool.query(`SELECT conversation_id FROM "${schema}".conversations WHERE conversation_id IN ('old', 'kept')`);
    expect(rows).toEqual([]);
  });

  it('a row Keel did not write is a permanent MemoryStoreError naming the table, and leaves no lease behind', async () => {
    const pool = postgres.pool();
    const memory = postgresMemory({ pool, schema, leaseMs: 30_000, concurrency: 'reject' });
    await memory.append('c', [{ role: 'user', content: 'hi' }]);
    await pool.query(`UPDATE "${schema}".exchanges SET messages = '{"not": "an array"}'`);
    const agent = Agent.create({ provider: echoModel(), model: 'm' }).memory(memory).build();
    const error = await agent.run('hi', { conversationId: 'c' }).catch((caught: unknown) => caught);
    expect(MemoryStoreError.isInstance(error) && error.retryable).toBe(false);
    const cause = (error as MemoryStoreError).cause;
    expect(PostgresError.isInstance(cause) && cause.problem === 'refused' && cause.table).toBe(`"${schema}".exchanges`);
    expect((await pool.query(`SELECT lease_token FROM "${schema}".conversations`)).rows).toEqual([{ lease_token: null }]);
  });

  it('a table changed by hand is a permanent MemoryStoreError with its SQLSTATE', async () => {
    const pool = postgres.pool();
    const memory = postgresMemory({ pool, schema });
    await memory.migrate();
    await pool.query(`ALTER TABLE "${schema}".exchanges DROP COLUMN messages`);
    const error = await memory.append('c', [{ role: 'user', content: 'hi' }]).catch((caught: unknown) => caught);
    expect(MemoryStoreError.isInstance(error)).toBe(true);
    expect((error as MemoryStoreError).cause).toMatchObject({ name: 'PostgresError', problem: 'refused', code: '42703' });
  });

  it('never hangs when the server is down: a run fails with PostgresError unavailable within the timeout', async () => {
    const memory = postgresMemory({ pool: postgres.pool({ connectionTimeoutMillis: 200 }), schema, timeoutMs: 500 });
    await memory.migrate();
    const agent = Agent.create({ provider: echoModel(), model: 'm' }).memory(memory).build();
    await postgres.server.kill();
    try {
      const started = Date.now();
      const error = await agent.run('hello', { conversationId: 'c' }).catch((caught: unknown) => caught);
      expect(PostgresError.isInstance(error) && [error.problem, error.operation]).toEqual(['unavailable', 'memory load']);
      expect(Date.now() - started).toBeLessThan(2_000);
    } finally {
      await postgres.server.restart();
    }
  });

  it('refuses settings that cannot work', () => {
    const pool = postgres.pool();
    expect(() => postgresMemory({ pool, leaseMs: 50 })).toThrow(TypeError);
    expect(() => postgresMemory({ pool, ttlSeconds: -1 })).toThrow(TypeError);
    expect(() => postgresMemory({ pool, concurrency: 'queue' as never })).toThrow(TypeError);
    expect(() => postgresMemory({ pool, schema: 'no spaces' })).toThrow(TypeError);
  });
});
