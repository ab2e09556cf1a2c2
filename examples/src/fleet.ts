/**
 * A fleet on one machine: two BullMQ workers run agent jobs for two tenants, with memory, a
 * budget per tenant and a backoff shared through Redis. Offline (a scripted model), but it NEEDS
 * A REDIS SERVER: `redis-server --port 6379 --save '' --appendonly no` (or set REDIS_URL).
 * Not part of `pnpm demo`. Run it with: pnpm --filter @keel/examples exec tsx --conditions=@keel/source src/fleet.ts
 */
import { Agent, type AgentBuilder } from '@keel/core';
import { scriptedModel } from '@keel/core/test';
import { agentQueue, createAgentWorker } from '@keel/bullmq';
import { redisMemory, sharedBackoff, sharedBudget } from '@keel/redis';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';

const url = new URL(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
const connection = { host: url.hostname, port: Number(url.port || 6379), maxRetriesPerRequest: null };
const redis = new Redis({ ...connection, lazyConnect: true });
try {
  await redis.connect();
} catch {
  console.error(`No Redis at ${url.href}: start one with  redis-server --port 6379 --save '' --appendonly no`);
  process.exit(1);
}

// The provider answers in 100 ms; the first call of the fleet is rate-limited (429, Retry-After 1 s).
let calls = 0;
const model = scriptedModel((request) => {
  calls++;
  if (calls === 1) return Object.assign(new Error('429 Too Many Requests'), { status: 429, retryAfterMs: 1_000 });
  const question = request.messages.at(-1);
  return { text: `Noted: ${question?.role === 'user' ? question.content : '?'}`, usage: { inputTokens: 400, outputTokens: 100 }, delayMs: 100 };
});

const backoff = sharedBackoff({ redis, key: 'example:backoff:scripted' });
/** One agent per tenant (a builder: the worker builds it): the same model, its own fleet-wide budget. */
const agentFor = (tenant: string, tokens: number): AgentBuilder<string> => {
  const budget = sharedBudget({ redis, key: `example:budget:${tenant}`, limit: { tokens } });
  return Agent.create({ provider: model, model: 'scripted' })
    .system('You keep notes for a support team.')
    .memory(redisMemory({ redis, prefix: 'example:' }))
    .use(backoff)
    .use(budget)
    .on('reliability.wait', (event) => console.log(`  [${tenant}] waited ${Math.round(event.delayMs)} ms: the fleet is backing off`));
};
const agents = { acme: agentFor('acme', 10_000), globex: agentFor('globex', 1_200) };

await redis.eval("for _, key in ipairs(redis.call('KEYS', 'example:*')) do redis.call('DEL', key) end", 0);
const queue = new Queue('example-runs', { connection });
const runs = agentQueue<typeof agents>(queue);
await queue.obliterate({ force: true });
const workers = [1, 2].map(() => createAgentWorker({ connection, queue: 'example-runs', agents, concurrency: 2 }));

const notes = ['printer jammed', 'printer fixed', 'toner low', 'toner ordered'];
const jobs = await Promise.all(
  notes.flatMap((note, index) =>
    (['acme', 'globex'] as const).map((tenant) => runs.enqueue({ agent: tenant, tenant, input: note, conversationId: `${tenant}-desk`, jobId: `${tenant}-${index}` })),
  ),
);
for (const job of jobs) {
  try {
    const summary = await runs.result(job);
    console.log(`${job.id}: ${summary.status === 'complete' ? summary.value : 'waits for approval'} (${summary.attempts} model calls, ${summary.usage.totalTokens} tokens)`);
  } catch (error) {
    console.log(`${job.id}: failed — ${(error as Error).message.split('\n')[0]}`);
  }
}
for (const tenant of ['acme', 'globex']) {
  const kept = await redisMemory({ redis, prefix: 'example:' }).load(`${tenant}-desk`);
  console.log(`${tenant}-desk keeps ${kept.length / 2} whole exchanges`);
}
await Promise.all(workers.map((worker) => worker.close()));
await runs.close();
await queue.close();
redis.disconnect();
