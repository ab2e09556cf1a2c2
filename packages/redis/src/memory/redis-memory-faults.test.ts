import { Agent, MemoryStoreError, tool } from '@keel/core';
import { scriptedModel } from '@keel/core/test';
import { describe, expect, it } from 'vitest';
import { MemoryLeaseLostError } from '../errors/memory-lease-lost-error';
import { RedisKeyError } from '../errors/redis-key-error';
import { RedisUnavailableError } from '../errors/redis-unavailable-error';
import { useRedisServer } from '../testing/use-redis-server';
import { redisMemory } from './redis-memory';

const { server, client } = useRedisServer();
/** A tool input that takes no arguments. */
const EMPTY = { parse: (): Record<string, never> => ({}) };

const echoModel = (delayMs = 0) =>
  scriptedModel((request) => {
    const last = [...request.messages].reverse().find((message) => message.role === 'user');
    return { text: `answer to ${typeof last?.content === 'string' ? last.content : '?'}`, delayMs };
  });

const keys = (id = 'c') => ({
  order: `keel:memory:{${id}}:order`,
  exchanges: `keel:memory:{${id}}:exchanges`,
  lease: `keel:memory:{${id}}:lease`,
  fence: `keel:memory:{${id}}:fence`,
});

/** Blocks this thread (the event loop with it) for `ms`, as a CPU-bound or synchronous tool would. */
const blockEventLoop = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

describe('redisMemory: a lease that merely expired loses nothing (fencing decides)', () => {
  it('keeps the turn of a run whose tool blocked the event loop past leaseMs', async () => {
    const memory = redisMemory({ redis: client(), leaseMs: 150 });
    const model = scriptedModel([{ toolCalls: [{ name: 'crunch', arguments: {} }] }, 'crunched']);
    const crunch = tool({ name: 'crunch', description: 'blocks', input: EMPTY, execute: () => (blockEventLoop(600), 'done') });
    const agent = Agent.create({ provider: model, model: 'm' }).tool(crunch).memory(memory).build();
    await expect(agent.run('crunch it', { conversationId: 'c' })).resolves.toMatchObject({ text: 'crunched' });
    const kept = await memory.load('c');
    expect(kept.map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    expect(await client().exists(keys().lease)).toBe(0);
  });

  it('keeps the turn of a run while Redis was paused (SIGSTOP) for longer than leaseMs', async () => {
    const memory = redisMemory({ redis: client(), leaseMs: 200, timeoutMs: 5_000 });
    const agent = Agent.create({ provider: echoModel(1_200), model: 'm' }).memory(memory).build();
    const running = agent.run('through the pause', { conversationId: 'c' });
    await new Promise((resolve) => setTimeout(resolve, 100));
    server.pause();
    try {
      await new Promise((resolve) => setTimeout(resolve, 700));
    } finally {
      server.resume();
    }
    await expect(running).resolves.toMatchObject({ text: 'answer to through the pause' });
    expect((await memory.load('c')).map((message) => message.content)).toEqual(['through the pause', [{ type: 'text', text: 'answer to through the pause' }]]);
  });

  it('after an expiry, a renewal takes the lease again while nobody else came, so a second run still waits its turn', async () => {
    const redis = client();
    const memory = redisMemory({ redis, leaseMs: 10_000, concurrency: 'reject' });
    await memory.load('c', { runId: 'first' });
    await redis.del(keys().lease); // expired (a pause), nobody else came
    await memory.append('c', [{ role: 'user', content: 'kept' }], { runId: 'first' });
    expect(await memory.load('c')).toEqual([{ role: 'user', content: 'kept' }]);
  });

  it('still refuses the append of a run whose conversation another run took after its lease expired', async () => {
    const redis = client();
    const memory = redisMemory({ redis, leaseMs: 10_000 });
    const other = redisMemory({ redis: client(), leaseMs: 10_000 });
    const model = scriptedModel([{ toolCalls: [{ name: 'stall', arguments: {} }] }, 'too late']);
    const stall = tool({
      name: 'stall',
      description: 'stalls while another worker takes the conversation',
      input: EMPTY,
      execute: async () => {
        // The lease expires; another worker's run takes the conversation and stores its turn.
        await redis.del(keys().lease);
        await other.load('c', { runId: 'taker' });
        await other.append('c', [{ role: 'user', content: 'taker' }], { runId: 'taker' });
        return 'done';
      },
    });
    const agent = Agent.create({ provider: model, model: 'm' }).tool(stall).memory(memory).build();
    await expect(agent.run('late', { conversationId: 'c' })).rejects.toSatisfy(MemoryLeaseLostError.isInstance);
    expect(await memory.load('c')).toEqual([{ role: 'user', content: 'taker' }]);
  });
});

describe('redisMemory: keys holding what Keel did not write', () => {
  it('a key of the wrong type is a permanent MemoryStoreError naming it, and leaves no lease behind', async () => {
    const redis = client();
    await redis.rpush(keys().order, 'some-run');
    await redis.set(keys().exchanges, 'not a hash');
    const agent = Agent.create({ provider: echoModel(), model: 'm' }).memory(redisMemory({ redis, leaseMs: 30_000 })).build();
    const error = await agent.run('hi', { conversationId: 'c' }).catch((caught: unknown) => caught);
    expect(MemoryStoreError.isInstance(error)).toBe(true);
    expect(RedisUnavailableError.isInstance(error)).toBe(false);
    expect((error as MemoryStoreError).retryable).toBe(false);
    expect((error as MemoryStoreError).message).toContain(keys().exchanges);
    const cause = (error as MemoryStoreError).cause;
    expect(RedisKeyError.isInstance(cause) && cause.key).toBe(keys().exchanges);
    expect(await redis.exists(keys().lease, keys().fence)).toBe(0);
  });

  it('refuses a wrong-type order list on append too, writing nothing', async () => {
    const redis = client();
    const memory = redisMemory({ redis });
    await redis.hset(keys().order, 'x', '1');
    const error = await memory.append('c', [{ role: 'user', content: 'hi' }]).catch((caught: unknown) => caught);
    expect(MemoryStoreError.isInstance(error) && (error as MemoryStoreError).message).toContain(keys().order);
    expect(await redis.exists(keys().exchanges)).toBe(0);
  });

  it('a fencing counter that is not a number is a MemoryStoreError naming it', async () => {
    const redis = client();
    await redis.set(keys().fence, 'garbage');
    const agent = Agent.create({ provider: echoModel(), model: 'm' }).memory(redisMemory({ redis })).build();
    const error = await agent.run('hi', { conversationId: 'c' }).catch((caught: unknown) => caught);
    expect(MemoryStoreError.isInstance(error) && (error as MemoryStoreError).message).toContain(keys().fence);
    expect(await redis.exists(keys().lease)).toBe(0);
  });

  it('an exchange that is not JSON is a MemoryStoreError naming the key; the lease taken is let go at once', async () => {
    const redis = client();
    await redis.rpush(keys().order, 'r1');
    await redis.hset(keys().exchanges, 'r1', '{not json');
    const agent = Agent.create({ provider: echoModel(), model: 'm' }).memory(redisMemory({ redis, leaseMs: 30_000 })).build();
    const error = await agent.run('hi', { conversationId: 'c' }).catch((caught: unknown) => caught);
    expect(MemoryStoreError.isInstance(error) && (error as MemoryStoreError).message).toContain(keys().exchanges);
    expect(await redis.exists(keys().lease)).toBe(0);
  });

  it.each([
    ['garbage with no TTL', 'garbage'],
    ['a token and run id with no TTL', '17 someone-else'],
  ])('a lease value Keel cannot have written (%s) counts as expired, not as a crash or a holder for ever', async (_name, value) => {
    const redis = client();
    await redis.set(keys().lease, value);
    const memory = redisMemory({ redis, maxWaitMs: 500 });
    const agent = Agent.create({ provider: echoModel(), model: 'm' }).memory(memory).build();
    await expect(agent.run('hi', { conversationId: 'c' })).resolves.toMatchObject({ text: 'answer to hi' });
    expect(await memory.load('c')).toHaveLength(2);
  });
});

describe('redisMemory: keys', () => {
  it('adds the separator a prefix lacks', async () => {
    const redis = client();
    const memory = redisMemory({ redis, prefix: 'support' });
    await memory.append('c', [{ role: 'user', content: 'hi' }]);
    expect((await redis.keys('*')).sort()).toEqual(['support:memory:{c}:exchanges', 'support:memory:{c}:order']);
  });

  it('keeps conversations whose ids cannot be hash tags apart from each other and from the rest', async () => {
    const memory = redisMemory({ redis: client() });
    const ids = ['', '}support', '{support}', 'support', '#support', '{', 'x'.repeat(500), 'x'.repeat(499)];
    for (const id of ids) await memory.append(id, [{ role: 'user', content: `in ${JSON.stringify(id)}` }]);
    for (const id of ids) expect(await memory.load(id)).toEqual([{ role: 'user', content: `in ${JSON.stringify(id)}` }]);
  });

  it('keeps the leases of runs apart whatever their ids hold (a separator character in a conversation or run id)', async () => {
    const memory = redisMemory({ redis: client() });
    await memory.load('a\u0000b', { runId: 'c' });
    await memory.load('a', { runId: 'b\u0000c' });
    await memory.append('a\u0000b', [{ role: 'user', content: 'one' }], { runId: 'c' });
    await memory.append('a', [{ role: 'user', content: 'two' }], { runId: 'b\u0000c' });
    expect(await memory.load('a\u0000b')).toEqual([{ role: 'user', content: 'one' }]);
    expect(await memory.load('a')).toEqual([{ role: 'user', content: 'two' }]);
  });
});

