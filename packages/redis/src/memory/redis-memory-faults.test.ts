import { Agent, MemoryStoreError } from '@keel/core';
import { scriptedModel } from '@keel/core/test';
import { describe, expect, it } from 'vitest';
import { RedisError } from '../errors/redis-error';
import { useRedisServer } from '../testing/use-redis-server';
import { redisMemory } from './redis-memory';

const { server, client } = useRedisServer();

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

describe('redisMemory: a lease that merely expired loses nothing (fencing decides)', () => {
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
});

describe('redisMemory: keys holding what Keel did not write', () => {
  it('a key of the wrong type is a permanent MemoryStoreError naming it, and leaves no lease behind', async () => {
    const redis = client();
    await redis.rpush(keys().order, 'some-run');
    await redis.set(keys().exchanges, 'not a hash');
    const agent = Agent.create({ provider: echoModel(), model: 'm' }).memory(redisMemory({ redis, leaseMs: 30_000 })).build();
    const error = await agent.run('hi', { conversationId: 'c' }).catch((caught: unknown) => caught);
    expect(MemoryStoreError.isInstance(error)).toBe(true);
    expect(RedisError.isInstance(error)).toBe(false);
    expect((error as MemoryStoreError).retryable).toBe(false);
    expect((error as MemoryStoreError).message).toContain(keys().exchanges);
    const cause = (error as MemoryStoreError).cause;
    expect(RedisError.isInstance(cause) && cause.problem === 'key' && cause.key).toBe(keys().exchanges);
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
});
