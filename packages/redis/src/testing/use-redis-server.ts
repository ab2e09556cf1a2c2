import { Redis, type RedisOptions } from 'ioredis';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { startRedisServer, type TestRedisServer } from './redis-server';

/** The test file's redis-server and a way to make clients of it. */
export interface RedisServerForTests {
  /** The server (its port, and kill/restart for fault tests); read it inside tests, once started. */
  readonly server: Pick<TestRedisServer, 'port' | 'kill' | 'restart' | 'pause' | 'resume'>;
  /** A client of the server, disconnected after the file's tests. */
  client(options?: RedisOptions): Redis;
}

/**
 * Starts a real redis-server on a random port for the calling test file (vitest hooks), flushes
 * it after each test, and stops it and every client afterwards.
 */
export function useRedisServer(): RedisServerForTests {
  let started: TestRedisServer | undefined;
  const clients: Redis[] = [];
  const running = (): TestRedisServer => {
    if (started === undefined) throw new Error('the redis-server of this test file is not started yet');
    return started;
  };
  const client = (options: RedisOptions = { maxRetriesPerRequest: 1 }) => {
    const redis = new Redis(running().port, '127.0.0.1', options);
    redis.on('error', () => undefined); // reconnect noise while the fault tests have Redis down
    clients.push(redis);
    return redis;
  };
  beforeAll(async () => {
    started = await startRedisServer();
  });
  afterEach(async () => {
    await client().flushall();
  });
  afterAll(async () => {
    for (const redis of clients) redis.disconnect();
    await started?.stop();
  });
  return {
    server: {
      get port() {
        return running().port;
      },
      kill: () => running().kill(),
      restart: () => running().restart(),
      pause: () => running().pause(),
      resume: () => running().resume(),
    },
    client,
  };
}
