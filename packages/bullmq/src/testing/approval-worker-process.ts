/**
 * A worker process for the approval tests: runs the `payments` agent of approval-agent.ts for
 * jobs of `queue`, printing a JSON line when ready and when a job completes or fails.
 * Arguments: port queue answerDelayMs
 */
import { Redis } from 'ioredis';
import { createAgentWorker } from '../create-agent-worker';
import { reportWorker } from './report-worker';
import { approvalAgent } from './approval-agent';

const [port, queue, answerDelayMs] = process.argv.slice(2);
const redis = new Redis(Number(port), '127.0.0.1', { maxRetriesPerRequest: null });
const { agent } = approvalAgent(redis, Number(answerDelayMs ?? 0));
const { worker } = createAgentWorker({
  connection: { host: '127.0.0.1', port: Number(port), maxRetriesPerRequest: null },
  queue: String(queue),
  agents: { payments: agent },
});
await reportWorker(worker);
