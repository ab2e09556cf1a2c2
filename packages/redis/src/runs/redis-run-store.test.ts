import { expect, it } from 'vitest';
import { describeRunStore, expectSharedStores } from '../../../core/src/durable/run-store-contract-fixture';
import { RedisError } from '../errors/redis-error';
import { useRedisServer } from '../testing/use-redis-server';
import { redisRunStore } from './redis-run-store';

const redis = useRedisServer();
const APPEND = { agentId: 'a', status: 'running', entries: [{ seq: 0 }] } as const;

describeRunStore('redisRunStore', () => redisRunStore({ redis: redis.client(), prefix: 'test' }));

it('shares fences, journals and claims between two clients (two workers of a fleet)', async () => {
  await expectSharedStores(redisRunStore({ redis: redis.client() }), redisRunStore({ redis: redis.client() }));
});

it('keeps a journal as a list of JSON texts beside a hash of where the run stands', async () => {
  const client = redis.client();
  const store = redisRunStore({ redis: client });
  await store.append(await store.acquire('kept'), { agentId: 'a', tenant: 'acme', status: 'suspended', entries: [{ z: 1, a: 2 }, { seq: 1 }] });
  expect(await client.lrange('keel:run:{kept}:entries', 0, -1)).toEqual(['{"z":1,"a":2}', '{"seq":1}']);
  expect(await client.hgetall('keel:run:{kept}:meta')).toEqual({ agentId: 'a', status: 'suspended', tenant: 'acme' });
  // A later append without a tenant drops it.
  await store.append(await store.acquire('kept'), { agentId: 'a', status: 'complete', entries: [] });
  expect(await store.load('kept')).toEqual({ runId: 'kept', agentId: 'a', status: 'complete', entries: [{ z: 1, a: 2 }, { seq: 1 }], version: 2 });
});

it('appends many entries at once (more than one push of the script)', async () => {
  const store = redisRunStore({ redis: redis.client() });
  const entries = Array.from({ length: 2_500 }, (_, seq) => ({ seq }));
  expect(await store.append(await store.acquire('long'), { ...APPEND, entries })).toBe(2_500);
  expect((await store.load('long'))?.entries).toEqual(entries);
});

type Operation = 'append' | 'acquire' | 'acquireAt' | 'load';
it.each<[string, Operation[], (key: string) => Promise<unknown>]>([
  ['entries', ['append', 'acquireAt', 'load'], (key) => redis.client().set(key, 'not a list')],
  ['meta', ['append', 'load'], (key) => redis.client().set(key, 'not a hash')],
  ['fence', ['append', 'acquireAt', 'acquire'], (key) => redis.client().set(key, 'not a number')],
])('names a key that holds what Keel did not write (%s), writing nothing', async (name, operations, spoil) => {
  const key = `keel:run:{broken}:${name}`;
  await spoil(key);
  const client = redis.client();
  const store = redisRunStore({ redis: client });
  const before = await client.keys('*');
  const run = { append: () => store.append({ runId: 'broken', fence: 1 }, APPEND), acquire: () => store.acquire('broken'), acquireAt: () => store.acquireAt('broken', 0), load: () => store.load('broken') };
  for (const operation of operations) {
    const error = await run[operation]().catch((thrown: unknown) => thrown);
    expect({ operation, key: RedisError.isInstance(error) && error.problem === 'key' && error.key }).toEqual({ operation, key });
  }
  expect(await client.keys('*')).toEqual(before);
});

it('names the key of an entry that is not JSON', async () => {
  const client = redis.client();
  const store = redisRunStore({ redis: client });
  await store.append(await store.acquire('spoiled'), APPEND);
  await client.rpush('keel:run:{spoiled}:entries', '{not json');
  const error = await store.load('spoiled').catch((thrown: unknown) => thrown);
  expect(RedisError.isInstance(error) && error.problem === 'key' && error.key).toBe('keel:run:{spoiled}:entries');
});

it('refuses bad input before anything is sent', async () => {
  const client = redis.client();
  const store = redisRunStore({ redis: client });
  const lease = await store.acquire('checked');
  await expect(store.append(lease, { ...APPEND, status: 'paused' as never })).rejects.toThrow(TypeError);
  await expect(store.append(lease, { ...APPEND, agentId: '' })).rejects.toThrow(TypeError);
  await expect(store.append(lease, { ...APPEND, tenant: 7 as never })).rejects.toThrow(TypeError);
  await expect(store.append({ runId: 'checked', fence: '1' as never }, APPEND)).rejects.toThrow(TypeError);
  await expect(store.acquireAt('checked', '0' as never)).rejects.toThrow(TypeError);
  expect(await store.acquireAt('checked', -1)).toBeUndefined();
  expect(await client.keys('*')).toEqual(['keel:run:{checked}:fence']);
});

it('fails with RedisError unavailable, never hangs, when Redis is down', async () => {
  const store = redisRunStore({ redis: redis.client({ maxRetriesPerRequest: 0, enableOfflineQueue: false }), timeoutMs: 300 });
  await redis.server.kill();
  try {
    const error = await store.acquire('down').catch((thrown: unknown) => thrown);
    expect(RedisError.isInstance(error) && error.problem).toBe('unavailable');
  } finally {
    await redis.server.restart();
  }
});

it('refuses options that cannot work', () => {
  expect(() => redisRunStore({ redis: redis.client(), prefix: '{x}' })).toThrow(TypeError);
  expect(() => redisRunStore({ redis: redis.client(), timeoutMs: Number.NaN })).toThrow(TypeError);
});
