import { execFileSync } from 'node:child_process';
import { Agent, memoryRunStore, type RunStore, tool } from '@keel/core';
import type { ModelProviderV1 } from '@keel/provider';
import { postgresRunStore } from '@keel/postgres';
import { redisRunStore } from '@keel/redis';
import { Type } from '@sinclair/typebox';
import { Redis } from 'ioredis';
import { startRedisServer, type TestRedisServer } from '../../../redis/src/testing/redis-server';
import { startPostgresServer, type TestPostgresServer } from '../../../postgres/src/testing/postgres-server';
import { findPostgresBin } from '../../../../scripts/ensure-postgres.mjs';
import { pageAgent } from '../../../devtools/src/testing/page-run';
import { compare, type Contender, pairedRatio, type Timing, us } from '../measure';

/** A zero-latency model: a credit, then an email, then the answer (three steps, two tool calls). */
function refundModel(): ModelProviderV1 {
  return {
    specificationVersion: 'v1',
    name: 'refunds',
    generate: async (request) => {
      const done = request.messages.filter((message) => message.role === 'tool').length;
      const usage = { inputTokens: 100, outputTokens: 10, cacheReadTokens: 0, cacheWriteTokens: 0 };
      if (done === 0) return { content: [{ type: 'tool-call', id: 'c1', name: 'credit', arguments: { amount: 40 } }], text: '', finishReason: 'tool-calls', usage };
      if (done === 1) return { content: [{ type: 'tool-call', id: 'e1', name: 'email', arguments: { text: 'refunded' } }], text: '', finishReason: 'tool-calls', usage };
      return { content: [{ type: 'text', text: 'Refunded.' }], text: 'Refunded.', finishReason: 'stop', usage };
    },
  };
}

const credit = tool({ name: 'credit', description: 'Credits', input: Type.Object({ amount: Type.Number() }), effect: 'idempotent', execute: () => 'credited' });
const email = tool({ name: 'email', description: 'Emails', input: Type.Object({ text: Type.String() }), execute: () => 'sent' });

const KEY = 'bench-state-key-'.repeat(2);

const agentOn = (store?: RunStore) => {
  const builder = Agent.create({ provider: refundModel(), model: 'bench', id: 'refunds', stateKey: KEY }).tool(credit).tool(email);
  return (store ? builder.durable(store) : builder).build();
};

/** A store that counts the appends it is handed and their bytes as JSON. */
function counted(store: RunStore): { store: RunStore; writes: () => number; bytes: () => number } {
  let writes = 0;
  let bytes = 0;
  const append: RunStore['append'] = (lease, given) => {
    writes += 1;
    bytes += Buffer.byteLength(JSON.stringify(given));
    return store.append(lease, given);
  };
  return { store: { ...store, append }, writes: () => writes, bytes: () => bytes };
}

/** What a durable run of `steps` tool steps (8 KB results, compaction off) hands its store: appends and JSON bytes. */
export async function durableBytes(steps: number): Promise<{ readonly appends: number; readonly bytes: number }> {
  const store = counted(memoryRunStore());
  // `steps` tool steps, then the answer.
  await pageAgent(steps + 1).context(false).durable(store.store).build().run('Where is order A-1182?');
  return { appends: store.writes(), bytes: store.bytes() };
}

export interface DurableFigures {
  readonly plain: Timing;
  readonly memory: Timing;
  readonly redis?: Timing;
  readonly postgres?: Timing;
  readonly writesPerRun: number;
  readonly bytes25: { readonly appends: number; readonly bytes: number };
  readonly bytes100: { readonly appends: number; readonly bytes: number };
  readonly markdown: string;
}

const redisInstalled = (): boolean => {
  try {
    execFileSync('redis-server', ['--version']);
    return true;
  } catch {
    return false;
  }
};

/**
 * The cost of durability: one three-step run (two tool calls, then the answer) on a plain agent
 * and on durable ones (`memoryRunStore`, and `redisRunStore` on a local `redis-server` when it is
 * installed), side by side.
 */
export async function measureDurable(): Promise<DurableFigures> {
  let server: TestRedisServer | undefined;
  let redis: Redis | undefined;
  let postgresServer: TestPostgresServer | undefined;
  let closePostgres: (() => Promise<void>) | undefined;
  try {
    const memory = counted(memoryRunStore());
    const contenders: Contender[] = [
      { name: 'plain', run: () => agentOn().run('refund A-1') },
      { name: 'memory', run: () => agentOn(memory.store).run('refund A-1') },
    ];
    const available = redisInstalled();
    if (available) {
      server = await startRedisServer();
      redis = new Redis(server.port, '127.0.0.1', { maxRetriesPerRequest: null });
      const store = redisRunStore({ redis });
      contenders.push({ name: 'redis', run: () => agentOn(store).run('refund A-1') });
    }
    if (findPostgresBin() !== undefined) {
      postgresServer = await startPostgresServer();
      const store = postgresRunStore({ connectionString: postgresServer.url });
      await store.migrate();
      closePostgres = () => store.close();
      contenders.push({ name: 'postgres', run: () => agentOn(store).run('refund A-1') });
    }
    const before = memory.writes();
    await agentOn(memory.store).run('refund A-1');
    const writesPerRun = memory.writes() - before;
    const bytes25 = await durableBytes(25);
    const bytes100 = await durableBytes(100);
    const mb = (bytes: number) => `${(bytes / 1_048_576).toFixed(2)} MB`;
    const timings = await compare(contenders, { rounds: 15, batch: 40, warmup: 200 });
    const plain = timings.get('plain') as Timing;
    const inMemory = timings.get('memory') as Timing;
    const onRedis = timings.get('redis');
    const onPostgres = timings.get('postgres');
    const row = (name: string, timing: Timing) => `| ${name} | ${us(timing.medianUs)} | ${us(timing.minUs)} – ${us(timing.maxUs)} | ${pairedRatio(timing, plain).median.toFixed(2)}x | +${us(timing.medianUs - plain.medianUs)} |`;
    const markdown = `## Durable runs: what a run hands its store, and what it costs

A durable run appends to its journal what each step added, never its whole state again. A run
that fetches one 8 KB page a step (compaction off), on a \`memoryRunStore\` that counts the JSON
bytes of each append it is handed:

| steps | appends | bytes handed to the store |
| --- | --- | --- |
| 25 | ${bytes25.appends} | ${mb(bytes25.bytes)} |
| 100 | ${bytes100.appends} | ${mb(bytes100.bytes)} |

The 100-step run hands its store ${(bytes100.bytes / bytes25.bytes).toFixed(2)}x the bytes of the 25-step run: linear in the run.

One run of three steps (an \`idempotent\` tool call, a \`once\` tool call, then the answer) on a
zero-latency model, on a plain agent and on durable agents (\`.durable(store)\`), side by side. A
durable run makes ${writesPerRun} appends: its input, one per step, an intent and an outcome around
each tool call, and its end; each holds only what is new.

| agent | per run | min – max | / plain (paired) | added |
| --- | --- | --- | --- | --- |
| plain | ${us(plain.medianUs)} | ${us(plain.minUs)} – ${us(plain.maxUs)} | 1.00x | |
${row('durable, `memoryRunStore()`', inMemory)}
${onRedis ? row('durable, `redisRunStore()` (local `redis-server`)', onRedis) : '| durable, `redisRunStore()` | not measured: `redis-server` is not installed | | | |'}
${onPostgres ? row('durable, `postgresRunStore()` (local PostgreSQL)', onPostgres) : '| durable, `postgresRunStore()` | not measured: PostgreSQL is not installed | | | |'}

With Redis, each append is a round trip (a Lua script under the run's fence); with PostgreSQL,
one statement (the fenced update and the entries' inserts together). The added time is mostly
${writesPerRun} round trips to a local server; against a model call of hundreds of milliseconds it
is a few per cent at most.
`;
    return { plain, memory: inMemory, ...(onRedis ? { redis: onRedis } : {}), ...(onPostgres ? { postgres: onPostgres } : {}), writesPerRun, bytes25, bytes100, markdown };
  } finally {
    redis?.disconnect();
    await server?.stop();
    await closePostgres?.();
    await postgresServer?.stop();
  }
}
