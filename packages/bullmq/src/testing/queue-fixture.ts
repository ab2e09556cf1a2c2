import { Queue, QueueEvents } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { startRedisServer, type TestRedisServer } from '../../../redis/src/testing/redis-server';

/**
 * The Redis and queues of a BullMQ test file: a real `redis-server` for the file, a client, and
 * fresh queues named `<name>-<n>`; everything a test opened is closed after it (last first), and
 * the data flushed.
 */
export function queueFixture(name: string) {
  let server: TestRedisServer | undefined;
  let client: Redis | undefined;
  const closers: (() => Promise<unknown>)[] = [];
  let count = 0;

  beforeAll(async () => {
    server = await startRedisServer();
    client = new Redis(server.port, '127.0.0.1', { maxRetriesPerRequest: null });
  });
  afterEach(async () => {
    for (const close of closers.splice(0).reverse()) await close();
    await client?.flushall();
  });
  afterAll(async () => {
    client?.disconnect();
    await server?.stop();
  });

  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('the Redis fixture is used before its server started');
    return value;
  };
  const connection = () => ({ host: '127.0.0.1', port: started(server).port, maxRetriesPerRequest: null });

  return {
    connection,
    get server(): TestRedisServer {
      return started(server);
    },
    get redis(): Redis {
      return started(client);
    },
    /** Runs `close` after the test, the last registered first. */
    cleanup(...close: (() => Promise<unknown>)[]): void {
      closers.push(...close);
    },
    /** A fresh queue (under `prefix`) with its events, closed after the test. */
    async queue(prefix?: string) {
      const queueName = `${name}-${++count}`;
      const options = { connection: connection(), ...(prefix === undefined ? {} : { prefix }) };
      const jobs = new Queue(queueName, options);
      const events = new QueueEvents(queueName, options);
      await events.waitUntilReady();
      closers.push(() => jobs.close(), () => events.close());
      return { name: queueName, jobs, events };
    },
  };
}
