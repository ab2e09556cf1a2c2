import { Agent, type Message } from '@keel/core';
import { scriptedModel } from '@keel/core/test';
import { describe, expect, it } from 'vitest';
import { ConversationBusyError } from '../errors/conversation-busy-error';
import { MemoryLeaseLostError } from '../errors/memory-lease-lost-error';
import { RedisUnavailableError } from '../errors/redis-unavailable-error';
import { useRedisServer } from '../testing/use-redis-server';
import { redisMemory } from './redis-memory';

const { server, client } = useRedisServer();

/** A model that answers `answer to <question>` after a short delay, so concurrent runs overlap. */
const echoModel = (delayMs = 5) =>
  scriptedModel((request) => {
    const last = request.messages.at(-1);
    return { text: `answer to ${last?.role === 'user' ? last.content : '?'}`, delayMs };
  });

describe('redisMemory', () => {
  it('keeps a conversation across runs and agents: each run sees the earlier exchanges', async () => {
    const memory = redisMemory({ redis: client() });
    const model = echoModel(0);
    const agent = Agent.create({ provider: model, model: 'm' }).memory(memory).build();
    await agent.run('one', { conversationId: 'c' });
    // Another agent (another worker, in a fleet) with its own client sees the same conversation.
    const other = Agent.create({ provider: model, model: 'm' }).memory(redisMemory({ redis: client() })).build();
    await other.run('two', { conversationId: 'c' });
    expect(model.requests[1]?.messages).toEqual([
      { role: 'user', content: 'one' },
      { role: 'assistant', content: [{ type: 'text', text: 'answer to one' }] },
      { role: 'user', content: 'two' },
    ]);
    expect(await memory.load('c')).toHaveLength(4);
  });

  it('refuses ephemeral messages and stores nothing', async () => {
    const memory = redisMemory({ redis: client() });
    const messages: Message[] = [{ role: 'user', content: 'kept' }, { role: 'user', content: 'feedback', ephemeral: true }];
    await expect(memory.append('c', messages)).rejects.toThrow(TypeError);
    expect(await memory.load('c')).toEqual([]);
  });

  it('serialize: 20 concurrent runs on 5 conversations leave each a clean sequence of whole exchanges', async () => {
    const model = echoModel(5);
    const agents = Array.from({ length: 4 }, () => Agent.create({ provider: model, model: 'm' }).memory(redisMemory({ redis: client() })).build());
    const runs = Array.from({ length: 20 }, (_, index) =>
      (agents[index % 4] as (typeof agents)[number]).run(`q${index}`, { conversationId: `conversation-${index % 5}` }),
    );
    await Promise.all(runs);
    const reader = redisMemory({ redis: client() });
    for (let conversation = 0; conversation < 5; conversation++) {
      const messages = await reader.load(`conversation-${conversation}`);
      expect(messages).toHaveLength(8);
      const questions: string[] = [];
      for (let index = 0; index < messages.length; index += 2) {
        const question = messages[index] as Message;
        const answer = messages[index + 1] as Message;
        expect(question.role).toBe('user');
        const text = question.content as string;
        questions.push(text);
        expect(answer).toEqual({ role: 'assistant', content: [{ type: 'text', text: `answer to ${text}` }] });
      }
      expect(questions.sort()).toEqual([0, 1, 2, 3].map((round) => `q${conversation + round * 5}`).sort());
    }
    // Serialised: no two runs of a conversation read the same snapshot, so they saw 0, 1, 2, 3 earlier exchanges.
    const seen = new Map<string, number[]>();
    for (const request of model.requests) {
      const first = request.messages[0] as Message;
      const question = request.messages.at(-1)?.content as string;
      const conversation = `conversation-${Number(question.slice(1)) % 5}`;
      seen.set(conversation, [...(seen.get(conversation) ?? []), (request.messages.length - 1) / 2]);
      expect(first.role).toBe('user');
    }
    for (const counts of seen.values()) expect(counts.sort()).toEqual([0, 1, 2, 3]);
  });

  it('reject: a run that finds the conversation in use fails with ConversationBusyError', async () => {
    const memory = redisMemory({ redis: client(), concurrency: 'reject' });
    const agent = Agent.create({ provider: echoModel(100), model: 'm' }).memory(memory).build();
    const outcomes = await Promise.allSettled([agent.run('a', { conversationId: 'c' }), agent.run('b', { conversationId: 'c' })]);
    const rejected = outcomes.filter((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected');
    expect(rejected).toHaveLength(1);
    expect(ConversationBusyError.isInstance(rejected[0]?.reason)).toBe(true);
    expect(rejected[0]?.reason.retryable).toBe(true);
    expect(await memory.load('c')).toHaveLength(2);
  });
});

describe('redisMemory', () => {
  it('stores one exchange per run id: a run made again replaces its exchange and does not see it', async () => {
    const memory = redisMemory({ redis: client() });
    const model = echoModel(0);
    const agent = Agent.create({ provider: model, model: 'm' }).memory(memory).build();
    await agent.run('first', { conversationId: 'c', runId: 'job-1' });
    await agent.run('second', { conversationId: 'c', runId: 'job-2' });
    await agent.run('second', { conversationId: 'c', runId: 'job-2' });
    expect(model.requests[2]?.messages.map((message) => message.content)).toEqual([
      'first',
      [{ type: 'text', text: 'answer to first' }],
      'second',
    ]);
    expect((await memory.load('c')).map((message) => message.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
  });

  it('releases the lease when a run aborts, so the next run does not wait for its expiry', async () => {
    const memory = redisMemory({ redis: client(), leaseMs: 30_000, maxWaitMs: 1_000 });
    const slow = Agent.create({ provider: echoModel(10_000), model: 'm' }).memory(memory).build();
    const controller = new AbortController();
    const aborted = slow.run('slow', { conversationId: 'c', signal: controller.signal });
    setTimeout(() => controller.abort(), 30);
    await expect(aborted).rejects.toThrow();
    const fast = Agent.create({ provider: echoModel(0), model: 'm' }).memory(memory).build();
    await fast.run('fast', { conversationId: 'c' });
    expect(await memory.load('c')).toHaveLength(2);
  });

  it('renews the lease while a run lasts longer than leaseMs', async () => {
    const memory = redisMemory({ redis: client(), leaseMs: 200, concurrency: 'reject' });
    const slow = Agent.create({ provider: echoModel(800), model: 'm' }).memory(memory).build();
    const running = slow.run('slow', { conversationId: 'c' });
    await new Promise((resolve) => setTimeout(resolve, 500));
    const other = Agent.create({ provider: echoModel(0), model: 'm' }).memory(memory).build();
    await expect(other.run('meanwhile', { conversationId: 'c' })).rejects.toSatisfy(ConversationBusyError.isInstance);
    await expect(running).resolves.toMatchObject({ text: 'answer to slow' });
    expect(await memory.load('c')).toHaveLength(2);
  });

  it('lets a crashed holder’s lease expire: the next run gets the conversation after about leaseMs', async () => {
    const doomed = client();
    const crashed = redisMemory({ redis: doomed, leaseMs: 300 });
    await crashed.load('c', { runId: 'crashed-run' });
    doomed.disconnect(); // its renewals can no longer reach Redis, as if its process had died
    const started = Date.now();
    const agent = Agent.create({ provider: echoModel(0), model: 'm' }).memory(redisMemory({ redis: client(), leaseMs: 300 })).build();
    await agent.run('after the crash', { conversationId: 'c' });
    expect(Date.now() - started).toBeGreaterThanOrEqual(150);
    expect(await redisMemory({ redis: client() }).load('c')).toHaveLength(2);
  });

  it('refuses the append of a run whose lease expired and was taken (fencing)', async () => {
    const redis = client();
    const memory = redisMemory({ redis, leaseMs: 10_000 });
    await memory.load('c', { runId: 'stale' });
    await redis.del('keel:memory:{c}:lease'); // the lease expired while the run was stuck
    await memory.load('c', { runId: 'fresh' });
    await expect(memory.append('c', [{ role: 'user', content: 'late' }], { runId: 'stale' })).rejects.toSatisfy(MemoryLeaseLostError.isInstance);
    await memory.append('c', [{ role: 'user', content: 'on time' }], { runId: 'fresh' });
    expect(await memory.load('c')).toEqual([{ role: 'user', content: 'on time' }]);
  });

  it('never hangs when Redis is down: a run fails with RedisUnavailableError within the timeout', async () => {
    const redis = client({ maxRetriesPerRequest: null, retryStrategy: () => 50 });
    await redis.ping();
    const agent = Agent.create({ provider: echoModel(0), model: 'm' }).memory(redisMemory({ redis, timeoutMs: 300 })).build();
    await server.kill();
    try {
      const started = Date.now();
      const error = await agent.run('hello', { conversationId: 'c' }).catch((caught: unknown) => caught);
      expect(RedisUnavailableError.isInstance(error)).toBe(true);
      expect((error as RedisUnavailableError).operation).toBe('memory load');
      expect(Date.now() - started).toBeLessThan(2_000);
    } finally {
      await server.restart();
    }
  });
});
