import { Agent } from '@keel/core';
import { scriptedModel } from '@keel/core/test';
import { describe, expect, it } from 'vitest';
import { describeSharedMemory } from '../../../core/src/testing/shared-memory-contract-fixture';
import { ConversationBusyError, MemoryLeaseLostError } from '../index';
import { RedisError } from '../errors/redis-error';
import { useRedisServer } from '../testing/use-redis-server';
import { conversationKeys } from './conversation-keys';
import { redisMemory } from './redis-memory';

const { server, client } = useRedisServer();

/** A model that answers `answer to <question>` after a short delay, so concurrent runs overlap. */
const echoModel = (delayMs = 5) =>
  scriptedModel((request) => {
    const last = request.messages.at(-1);
    return { text: `answer to ${last?.role === 'user' ? last.content : '?'}`, delayMs };
  });

describeSharedMemory('redisMemory', {
  memory: (settings) => redisMemory({ redis: client(), ...settings }),
  expireLease: async (conversationId) => void (await client().del(conversationKeys('keel:', conversationId).lease)),
  crashable(settings) {
    const doomed = client();
    // Its renewals can no longer reach Redis, as if its process had died.
    return { memory: redisMemory({ redis: doomed, ...settings }), crash: () => doomed.disconnect() };
  },
  isBusy: ConversationBusyError.isInstance,
  isLeaseLost: MemoryLeaseLostError.isInstance,
});

describe('redisMemory', () => {
  it('never hangs when Redis is down: a run fails with RedisError unavailable within the timeout', async () => {
    const redis = client({ maxRetriesPerRequest: null, retryStrategy: () => 50 });
    await redis.ping();
    const agent = Agent.create({ provider: echoModel(0), model: 'm' }).memory(redisMemory({ redis, timeoutMs: 300 })).build();
    await server.kill();
    try {
      const started = Date.now();
      const error = await agent.run('hello', { conversationId: 'c' }).catch((caught: unknown) => caught);
      expect(RedisError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({ problem: 'unavailable', operation: 'memory load' });
      expect(Date.now() - started).toBeLessThan(2_000);
    } finally {
      await server.restart();
    }
  });
});
