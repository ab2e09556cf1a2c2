import { expect, it } from 'vitest';
import { describeRunStore } from '../../../core/src/durable/run-store-contract-fixture';
import { RedisKeyError } from '../errors/redis-key-error';
import { RedisUnavailableError } from '../errors/redis-unavailable-error';
import { useRedisServer } from '../testing/use-redis-server';
import { redisRunStore } from './redis-run-store';

const redis = useRedisServer();

describeRunStore('redisRunStore', () => redisRunStore({ redis: redis.client(), prefix: 'test' }));

it('shares fences and claims between two clients (two workers of a fleet)', async () => {
  const first = redisRunStore({ redis: redis.client() });
  const second = redisRunStore({ redis: redis.client() });
  const stale = await first.acquire('shared');
  await second.acquire('shared');
  await expect(first.save(stale, { agentId: 'a', status: 'running', state: {} })).rejects.toThrow(/newer owner/);
  expect(await first.claim('approval', 60_000)).toBe(true);
  expect(await second.claim('approval', 60_000)).toBe(false);
});

it('names a key that holds what Keel did not write', async () => {
  const client = redis.client();
  await client.set('keel:run:{broken}:checkpoint', 'not a hash');
  const store = redisRunStore({ redis: client });
  const error = await store.load('broken').catch((thrown: unknown) => thrown);
  expect(RedisKeyError.isInstance(error)).toBe(true);
  expect((error as RedisKeyError).key).toBe('keel:run:{broken}:checkpoint');
});

it('fails with RedisUnavailableError, never hangs, when Redis is down', async () => {
  const store = redisRunStore({ redis: redis.client({ maxRetriesPerRequest: 0, enableOfflineQueue: false }), timeoutMs: 300 });
  await redis.server.kill();
  try {
    const error = await store.acquire('down').catch((thrown: unknown) => thrown);
    expect(RedisUnavailableError.isInstance(error)).toBe(true);
  } finally {
    await redis.server.restart();
  }
});

it('refuses options that cannot work', () => {
  expect(() => redisRunStore({ redis: redis.client(), prefix: '{x}' })).toThrow(TypeError);
  expect(() => redisRunStore({ redis: redis.client(), timeoutMs: Number.NaN })).toThrow(TypeError);
});
