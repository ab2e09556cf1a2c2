// The fleet packages with the Redis clients a user installs (ioredis and bullmq from the app's own
// install, not Keel's): a run as a BullMQ job on a worker, its conversation in redisMemory, the
// fleet's budget debited. Usage: node fleet.mjs <redis port>
import { Type } from '@sinclair/typebox';
import { Agent } from '@keel/core';
import { scriptedModel } from '@keel/core/test';
import { createAgentWorker, enqueueRun } from '@keel/bullmq';
import { redisMemory, sharedBackoff, sharedBudget } from '@keel/redis';
import { Queue, QueueEvents } from 'bullmq';
import { Redis } from 'ioredis';

const port = Number(process.argv[2]);
const fail = (message) => {
  console.error(`fleet: ${message}`);
  process.exit(1);
};
const redis = new Redis({ port, lazyConnect: true });
const connection = { host: '127.0.0.1', port, maxRetriesPerRequest: null };
const budget = sharedBudget({ redis, key: 'tenant:acme', limit: { tokens: 1_000 } });
const model = scriptedModel(['{ "amount": "USD 50" }', '{ "amount": 50 }']);
const refunds = Agent.create({ provider: model, model: 'scripted' })
  .outputSchema(Type.Object({ amount: Type.Number() }))
  .memory(redisMemory({ redis }))
  .use(sharedBackoff({ redis }))
  .use(budget)
  .build();

const { close } = createAgentWorker({ connection, queue: 'runs', agents: { refunds }, concurrency: 2 });
const queue = new Queue('runs', { connection });
const events = new QueueEvents('runs', { connection });
try {
  const job = await enqueueRun(queue, { agent: 'refunds', input: 'Refund?', conversationId: 'customer-42' });
  const summary = await job.waitUntilFinished(events, 30_000);
  await budget.settled();
  const spent = await budget.spent();
  const kept = await redisMemory({ redis }).load('customer-42');
  if (summary.value?.amount !== 50 || summary.attempts !== 2) fail(`job summary ${JSON.stringify(summary)}`);
  if (!(spent.tokens > 0)) fail(`budget spent ${JSON.stringify(spent)}`);
  if (kept.length !== 2) fail(`conversation holds ${kept.length} messages, not the one exchange`);
  console.log(`fleet: ok (a job run on a worker, its exchange in redisMemory, ${spent.tokens} tokens debited from the shared budget)`);
} finally {
  await Promise.all([close(), queue.close(), events.close()]);
  redis.disconnect();
}
