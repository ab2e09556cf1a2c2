/**
 * A fleet worker process for the crash tests and the benchmark: runs the `assistant` agent (a
 * scripted model answering after `delayMs`, memory in Redis) for jobs of `queue`, and prints a
 * JSON line when it starts, when it takes a job and when it completes one.
 * Arguments: port queue delayMs concurrency
 */
import { Agent } from '@keel/core';
import { scriptedModel } from '@keel/core/test';
import { redisMemory } from '@keel/redis';
import { Redis } from 'ioredis';
import { createAgentWorker } from '../create-agent-worker';

const [port, queue, delayMs, concurrency] = process.argv.slice(2);
const redis = new Redis(Number(port), '127.0.0.1', { maxRetriesPerRequest: null });
const model = scriptedModel((request) => {
  const last = request.messages.at(-1);
  return { text: `answer to ${last?.role === 'user' ? last.content : '?'}`, delayMs: Number(delayMs) };
});
const assistant = Agent.create({ provider: model, model: 'scripted' })
  .memory(redisMemory({ redis, leaseMs: 1_000 }))
  .build();
const { worker } = createAgentWorker({
  connection: { host: '127.0.0.1', port: Number(port), maxRetriesPerRequest: null },
  queue: String(queue),
  agents: { assistant },
  concurrency: Number(concurrency ?? 1),
  // Short locks, so a killed worker's job is found stalled within about a second.
  workerOptions: { lockDuration: 1_000, stalledInterval: 500 },
});
const say = (message: object) => process.stdout.write(`${JSON.stringify({ pid: process.pid, ...message })}\n`);
worker.on('active', (job) => say({ event: 'active', jobId: job.id }));
worker.on('completed', (job) => say({ event: 'completed', jobId: job.id }));
await worker.waitUntilReady();
say({ event: 'ready' });
