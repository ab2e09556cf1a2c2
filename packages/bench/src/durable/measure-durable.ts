import { execFileSync } from 'node:child_process';
import { Agent, memoryRunStore, type RunStore, tool } from '@keel/core';
import type { ModelProviderV1 } from '@keel/core/internal';
import { redisRunStore } from '@keel/redis';
import { Type } from '@sinclair/typebox';
import { Redis } from 'ioredis';
import { startRedisServer, type TestRedisServer } from '../../../redis/src/testing/redis-server';
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

const agentOn = (store?: RunStore) => {
  const builder = Agent.create({ provider: refundModel(), model: 'bench', id: 'refunds' }).tool(credit).tool(email);
  return (store ? builder.durable(store) : builder).build();
};

/** A store that counts its writes, to report the checkpoints a run makes. */
function counted(store: RunStore): { store: RunStore; writes: () => number } {
  let writes = 0;
  return { store: { ...store, save: (lease, checkpoint) => ((writes += 1), store.save(lease, checkpoint)) }, writes: () => writes };
}

export interface DurableFigures {
  readonly plain: Timing;
  readonly memory: Timing;
  readonly redis?: Timing;
  readonly writesPerRun: number;
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
    const before = memory.writes();
    await agentOn(memory.store).run('refund A-1');
    const writesPerRun = memory.writes() - before;
    const timings = await compare(contenders, { rounds: 15, batch: 40, warmup: 200 });
    const plain = timings.get('plain') as Timing;
    const inMemory = timings.get('memory') as Timing;
    const onRedis = timings.get('redis');
    const row = (name: string, timing: Timing) => `| ${name} | ${us(timing.medianUs)} | ${us(timing.minUs)} – ${us(timing.maxUs)} | ${pairedRatio(timing, plain).median.toFixed(2)}x | +${us(timing.medianUs - plain.medianUs)} |`;
    const markdown = `## Durable runs: the cost of checkpoints

One run of three steps (an \`idempotent\` tool call, a \`once\` tool call, then the answer) on a
zero-latency model, on a plain agent and on durable agents (\`.durable(store)\`), side by side. A
durable run writes ${writesPerRun} checkpoints: the first state, one per step boundary, an intent and an
outcome around each tool call, and the result; each is the run's whole state as JSON.

| agent | per run | min – max | / plain (paired) | added |
| --- | --- | --- | --- | --- |
| plain | ${us(plain.medianUs)} | ${us(plain.minUs)} – ${us(plain.maxUs)} | 1.00x | |
${row('durable, `memoryRunStore()`', inMemory)}
${onRedis ? row('durable, `redisRunStore()` (local `redis-server`)', onRedis) : '| durable, `redisRunStore()` | not measured: `redis-server` is not installed | | | |'}

With Redis, each checkpoint is a round trip (a Lua script under the run's fence), so the added
time is mostly ${writesPerRun} round trips to a local server; against a model call of hundreds of
milliseconds it is a few per cent at most.
`;
    return { plain, memory: inMemory, ...(onRedis ? { redis: onRedis } : {}), writesPerRun, markdown };
  } finally {
    redis?.disconnect();
    await server?.stop();
  }
}
