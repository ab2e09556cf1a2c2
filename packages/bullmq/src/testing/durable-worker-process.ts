/**
 * A worker process for the crash tests: runs the durable `refunds` agent of durable-agent.ts for
 * jobs of `queue` (a short lock, so a killed worker's jobs are handed over within a second),
 * printing a JSON line when ready and when a job completes or fails.
 * Arguments: port queue concurrency
 */
import { Redis } from 'ioredis';
import { createAgentWorker } from '../create-agent-worker';
import { reportWorker } from './report-worker';
import { durableAgent } from './durable-agent';

const [port, queue, concurrency] = process.argv.slice(2);
const redis = new Redis(Number(port), '127.0.0.1', { maxRetriesPerRequest: null });
const { worker } = createAgentWorker({
  connection: { host: '127.0.0.1', port: Number(port), maxRetriesPerRequest: null },
  queue: String(queue),
  concurrency: Number(concurrency ?? 1),
  agents: { refunds: durableAgent(redis) },
  workerOptions: { lockDuration: 1_000, stalledInterval: 250, maxStalledCount: 100 },
});
await reportWorker(worker);
